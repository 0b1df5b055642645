/**
 * ISBNs as people type them ("978-7-02-002430-4", "0 306 40615 2") and as the catalogue stores them: digits only
 * (and a final X for ISBN-10), checksum verified. Uniqueness compares the ISBN-13 form, so the ISBN-10 and the
 * ISBN-13 of one edition are the same book.
 */

/** Spaces and hyphens removed, a final x upper-cased; nothing else changed. */
export function compactIsbn(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase()
}

function isValidIsbn10(isbn: string): boolean {
  if (!/^\d{9}[\dX]$/.test(isbn)) return false
  let sum = 0
  for (let index = 0; index < 10; index++) {
    const char = isbn[index] ?? ''
    sum += (char === 'X' ? 10 : Number(char)) * (10 - index)
  }
  return sum % 11 === 0
}

function isbn13CheckDigit(first12: string): number {
  let sum = 0
  for (let index = 0; index < 12; index++) sum += Number(first12[index]) * (index % 2 === 0 ? 1 : 3)
  return (10 - (sum % 10)) % 10
}

function isValidIsbn13(isbn: string): boolean {
  return /^97[89]\d{10}$/.test(isbn) && isbn13CheckDigit(isbn.slice(0, 12)) === Number(isbn[12])
}

/** True for a compact ISBN-10 or ISBN-13 whose check digit is right. */
export function isValidIsbn(compact: string): boolean {
  return compact.length === 10 ? isValidIsbn10(compact) : compact.length === 13 && isValidIsbn13(compact)
}

/** The ISBN-13 of a valid compact ISBN (an ISBN-10 gains the 978 prefix and a new check digit). */
export function toIsbn13(compact: string): string {
  if (compact.length === 13) return compact
  const first12 = `978${compact.slice(0, 9)}`
  return `${first12}${isbn13CheckDigit(first12)}`
}
