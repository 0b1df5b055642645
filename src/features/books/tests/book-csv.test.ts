import { describe, expect, it } from 'vitest'
import { parseBooksCsv } from '#/features/books/server/book-csv'

describe('reading a books CSV', () => {
  it('takes a file with a title column only (nothing to detect a delimiter from)', () => {
    const parsed = parseBooksCsv('title\nFirst\nSecond')
    expect(parsed.issues).toEqual([])
    expect(parsed.books.map(({ book }) => book.title)).toEqual(['First', 'Second'])
  })

  it('still reports a row whose quotes never close', () => {
    const parsed = parseBooksCsv('title,authors\n"Open quote,Someone\nNext,Other')
    expect(parsed.issues.map((issue) => issue.message)).toContain('import_malformed_row')
  })
})
