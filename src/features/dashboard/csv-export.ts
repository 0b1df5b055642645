import Papa from 'papaparse'

export interface CsvTable {
  /** Column headings, in the reader's language (what the table on screen shows). */
  fields: string[]
  rows: (string | number)[][]
}

/**
 * A table as CSV that spreadsheets open correctly: a byte-order mark so Excel reads UTF-8 (Chinese, paths), CRLF line
 * ends, and cells that start like a formula escaped, since page paths and referrers are typed by strangers.
 */
export function tableToCsv(table: CsvTable): string {
  return `\uFEFF${Papa.unparse({ fields: table.fields, data: table.rows }, { escapeFormulae: true, newline: '\r\n' })}\r\n`
}

/** `dashboard-pages-2026-11-01-2026-11-30.csv`: what it is and which days, so several downloads do not collide. */
export function csvFileName(name: string, range: { from: string; to: string }): string {
  return `dashboard-${name}-${range.from}-${range.to}.csv`
}

/** Hands the file to the browser's download, from memory (nothing goes to the server). */
export function downloadCsv(fileName: string, table: CsvTable): void {
  const url = URL.createObjectURL(new Blob([tableToCsv(table)], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked on the next tick: some browsers start the download only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
