import Papa from 'papaparse'
import { csvCellsOf, csvColumnsOf, csvHeaderReader, recordFromCsvRow } from '#/lib/entity'
import { bookEntity } from '../book-entity'
import { bookLimits } from '../book-rules'
import { toIsbn13 } from '../isbn'
import { type BookInput, bookInput } from '../schemas'

/** The columns an export writes and an import reads, in order (an exported file imports as it is): the definition's. */
const csvColumns = csvColumnsOf(bookEntity)
export const bookCsvColumns = csvColumns.map(({ column }) => column)
const columnOfField = new Map<string, string>(csvColumns.map(({ key, column }) => [key, column]))
/** Reads a header as written by hand ("Published year", "year") as its column. */
const columnOf = csvHeaderReader(bookEntity)

/** One problem in a file: its line (the header is line 1), the column, and a message key (src/lib/errors.ts). */
export interface ImportIssue {
  line: number
  column: string | null
  message: string
}

export interface ParsedImport {
  /** The valid rows, each with its line in the file. */
  books: { line: number; book: BookInput }[]
  /** Data rows in the file. */
  rowCount: number
  issues: ImportIssue[]
}

const issueLimit = 200

/**
 * The export writes a cell that starts like a formula with a leading quote (see booksToCsv); reading it back takes
 * that quote off again, so an exported file imports as the same books. A title that really starts with a quote and
 * then a formula character is the one value this changes, and only in a file; spreadsheets read such cells the same way.
 */
const formulaEscaped = /^'[=+\-@\t\r]/
export function withoutFormulaEscape(cell: string): string {
  return formulaEscaped.test(cell) ? cell.slice(1) : cell
}

/** Reads a CSV of books and checks every row as the form would; nothing here touches the database. */
export function parseBooksCsv(text: string): ParsedImport {
  const issues: ImportIssue[] = []
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: columnOf,
    transform: withoutFormulaEscape,
  })
  const headers = parsed.meta.fields ?? []
  if (!headers.includes('title')) {
    return {
      books: [],
      rowCount: parsed.data.length,
      issues: [{ line: 1, column: null, message: 'import_no_title_column' }],
    }
  }
  if (parsed.data.length === 0)
    return { books: [], rowCount: 0, issues: [{ line: 1, column: null, message: 'import_empty' }] }
  if (parsed.data.length > bookLimits.importRowsMax) {
    return {
      books: [],
      rowCount: parsed.data.length,
      issues: [{ line: 1, column: null, message: 'import_too_many_rows' }],
    }
  }
  for (const error of parsed.errors) {
    // A file with one column (titles only) has no delimiter to detect; Papa reads it with commas, which is right.
    if (error.type === 'Delimiter') continue
    // Papa counts data rows from 0; line 1 is the header.
    issues.push({ line: (error.row ?? 0) + 2, column: null, message: 'import_malformed_row' })
  }
  const books: ParsedImport['books'] = []
  const lineOfIsbn = new Map<string, number>()
  parsed.data.forEach((row, index) => {
    const line = index + 2
    const result = bookInput.safeParse(recordFromCsvRow(bookEntity, row))
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = issue.path[0] as keyof BookInput | undefined
        issues.push({ line, column: (field && columnOfField.get(field)) ?? null, message: issue.message })
      }
      return
    }
    const isbn13 = result.data.isbn ? toIsbn13(result.data.isbn) : null
    if (isbn13) {
      const earlier = lineOfIsbn.get(isbn13)
      if (earlier !== undefined) {
        issues.push({ line, column: 'isbn', message: 'validation_isbn_duplicate_in_file' })
        return
      }
      lineOfIsbn.set(isbn13, line)
    }
    books.push({ line, book: result.data })
  })
  issues.sort((a, b) => a.line - b.line)
  return { books, rowCount: parsed.data.length, issues }
}

/**
 * Keeps the first issues (a broken file could otherwise answer with megabytes of them), with how many there are and
 * on how many lines ("4 problems in 2 rows").
 */
export function firstIssues(issues: ImportIssue[]) {
  return {
    issues: issues.slice(0, issueLimit),
    issueCount: issues.length,
    issueLineCount: new Set(issues.map((issue) => issue.line)).size,
  }
}

type ExportedBook = Record<keyof BookInput, unknown>

/**
 * A cell a spreadsheet would run as a formula (OWASP's CSV injection list). Papa's own pattern (`escapeFormulae:
 * true`) ends in `.*$`, which misses a cell with a line break (a description): any cell starting so is escaped here.
 */
const formulaStart = /^[=+\-@\t\r]/

/**
 * The books as CSV, with a byte-order mark so spreadsheet programs read Chinese as UTF-8, and cells that start like
 * a formula (=, +, -, @) escaped so opening the file never runs one.
 */
export function booksToCsv(rows: ExportedBook[]): string {
  const data = rows.map((book) => csvCellsOf(bookEntity, book))
  return `\uFEFF${Papa.unparse({ fields: bookCsvColumns, data }, { escapeFormulae: formulaStart, newline: '\r\n' })}\r\n`
}
