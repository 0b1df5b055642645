import fc from 'fast-check'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { bookWithTitle } from '#/features/books/schemas'
import { bookCsvColumns, booksToCsv, parseBooksCsv } from '#/features/books/server/book-csv'

const book = (fields: { title?: string; description?: string; authors?: string[]; tags?: string[] }) =>
  bookWithTitle('Plain', fields)
/** Where a column's cells are in an exported row. */
const at = (column: string) => bookCsvColumns.indexOf(column)

/** The cells of an exported file, as a spreadsheet reads them (before it evaluates anything). */
const cellsOf = (csv: string) =>
  Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data.slice(1)

const formulaStarts = ['=', '+', '-', '@', '\t', '\r']

describe('CSV export and formula injection (OWASP CSV injection)', () => {
  it('prefixes every cell that starts like a formula with a single quote, multi-line cells included', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...formulaStarts),
        fc.string({ unit: fc.constantFrom('a', '1', '\n', '\r', '=', '"', ',', '书') }),
        fc.constantFrom('title', 'description', 'author'),
        (start, rest, field) => {
          const value = `${start}${rest}`
          const exported = booksToCsv([
            book(
              field === 'title'
                ? { title: value }
                : field === 'description'
                  ? { description: value }
                  : { authors: [value] },
            ),
          ])
          const cells = cellsOf(exported)[0] ?? []
          const cell = cells[at(field === 'title' ? 'title' : field === 'description' ? 'description' : 'authors')]
          expect(cell, `the cell for ${JSON.stringify(value)}`).toBe(`'${value}`)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('escapes a formula that goes on over several lines', () => {
    const cells = cellsOf(
      booksToCsv([book({ title: '=1+1\nsecond line', description: '=HYPERLINK("http://x")\r\nmore' })]),
    )[0]
    expect(cells?.[at('title')]).toBe("'=1+1\nsecond line")
    expect(cells?.[at('description')]).toBe('\'=HYPERLINK("http://x")\r\nmore')
  })

  it('never leaves a cell that a spreadsheet would run', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 4 }), (titles) => {
        const exported = booksToCsv(titles.map((title) => book({ title: title || 'x', description: title })))
        for (const row of cellsOf(exported)) {
          for (const cell of row) expect(cell, `cell ${JSON.stringify(cell)}`).not.toMatch(/^[=+\-@\t\r]/)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('imports an exported file as the same books: the quote added on export is taken off again', () => {
    const exported = booksToCsv([book({ title: '=SUM(A1:A2)', description: '@cmd\n=2+2', tags: ['-x'] })])
    const parsed = parseBooksCsv(exported)
    expect(parsed.issues).toEqual([])
    expect(parsed.books[0]?.book).toMatchObject({ title: '=SUM(A1:A2)', description: '@cmd\n=2+2', tags: ['-x'] })
  })

  it('keeps a leading quote that does not escape a formula', () => {
    const parsed = parseBooksCsv("title\n'Tis the season\n")
    expect(parsed.books[0]?.book.title).toBe("'Tis the season")
  })
})
