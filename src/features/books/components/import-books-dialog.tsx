import { useMutation } from '@tanstack/react-query'
import { type ChangeEvent, useId, useState } from 'react'
import { toast } from 'sonner'
import { shownValueOf } from '#/components/entity-fields'
import { isPlanLimitError, PlanLimitNotice } from '#/components/plan-limit-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { Input } from '#/components/ui/input'
import { columnLabelOf, isColumn, keysWhere } from '#/lib/entity'
import { describeError, translateMessage } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { requestBodyBytesMax } from '#/lib/request-body-limit'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { bookEntity } from '../book-entity'
import { useBookListCache } from '../book-queries'
import { bookLimits } from '../book-rules'

/** Counts as the reader writes them (1,200), in either language. */
const count = (value: number) => new Intl.NumberFormat(currentIntlLocale()).format(value)

/**
 * The size of the import's request as tRPC sends it (superjson leaves a string and a boolean as plain JSON): quotes
 * and line breaks grow when escaped, so a file just under the limit can still make a request over it.
 */
function importRequestBytes(csv: string): number {
  return new TextEncoder().encode(JSON.stringify({ json: { csv, dryRun: true } })).length
}

interface CheckedFile {
  csv: string
  rowCount: number
  issueCount: number
  issueLineCount: number
  issues: { line: number; column: string | null; message: string }[]
  preview: ({ line: number } & Record<string, unknown>)[]
}

/**
 * Import in two steps: the server checks the whole file and answers a preview or every problem, by line and column,
 * in the reader's language; only a file without problems can be imported, and then all of it is.
 */
export function ImportBooksDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC()
  const cache = useBookListCache()
  const importBooks = useMutation(trpc.books.import.mutationOptions())
  const [checked, setChecked] = useState<CheckedFile | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [limitError, setLimitError] = useState<unknown>(null)
  const fileId = useId()

  const close = (next: boolean) => {
    if (!next) {
      setChecked(null)
      setFailure(null)
      setLimitError(null)
    }
    onOpenChange(next)
  }

  const check = async (event: ChangeEvent<HTMLInputElement>) => {
    setChecked(null)
    setFailure(null)
    setLimitError(null)
    const file = event.target.files?.[0]
    if (!file) return
    if (file.size > bookLimits.importBytesMax) {
      setFailure(translateMessage('validation_import_too_large'))
      return
    }
    let csv: string
    try {
      csv = await file.text()
    } catch {
      setFailure(m.books_import_read_failed())
      return
    }
    if (importRequestBytes(csv) > requestBodyBytesMax) {
      setFailure(translateMessage('validation_import_too_large'))
      return
    }
    try {
      const report = await importBooks.mutateAsync({ csv, dryRun: true })
      setChecked({ csv, ...report })
    } catch (error) {
      if (isPlanLimitError(error)) setLimitError(error)
      else setFailure(describeError(error))
    }
  }

  const commit = async () => {
    if (!checked) return
    try {
      const report = await importBooks.mutateAsync({ csv: checked.csv, dryRun: false })
      // A large file runs as a job: its progress shows above the list, which refreshes when it ends.
      if (report.importId && report.imported === 0) {
        toast.success(
          m.books_import_queued({ count: new Intl.NumberFormat(currentIntlLocale()).format(report.rowCount) }),
        )
      } else toast.success(m.books_imported({ count: count(report.imported) }))
      close(false)
      await cache.refresh()
    } catch (error) {
      if (isPlanLimitError(error)) setLimitError(error)
      else setFailure(describeError(error))
    }
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-2xl">
        <DialogTitle>{m.books_import_title()}</DialogTitle>
        <DialogDescription>{m.books_import_description()}</DialogDescription>
        <div className="grid gap-1.5">
          <label htmlFor={fileId} className="text-sm font-medium">
            {m.books_import_file()}
          </label>
          <Input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            onChange={check}
            disabled={importBooks.isPending}
            className="py-1.5"
          />
        </div>
        {importBooks.isPending && !checked ? (
          <p className="text-sm text-muted-foreground" role="status">
            {m.books_import_checking()}
          </p>
        ) : null}
        <PlanLimitNotice error={limitError} />
        {failure ? (
          <p className="text-sm text-destructive" role="alert">
            {failure}
          </p>
        ) : null}
        {checked && checked.issueCount > 0 ? <ImportProblems checked={checked} /> : null}
        {checked && checked.issueCount === 0 ? <ImportPreview checked={checked} /> : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={() => close(false)}>
            {m.book_form_cancel()}
          </Button>
          <Button onClick={commit} disabled={!checked || checked.issueCount > 0 || importBooks.isPending}>
            {importBooks.isPending && checked
              ? m.books_import_importing()
              : m.books_import_submit({ rows: count(checked?.rowCount ?? 0) })}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}

/** Every problem of the file, by line and column, in the reader's language (the server sends the first ones). */
function ImportProblems({ checked }: { checked: CheckedFile }) {
  return (
    <div role="alert" className="grid gap-2 text-sm" data-testid="import-problems">
      <p className="font-medium text-destructive">
        {m.books_import_problems({ problems: count(checked.issueCount), rows: count(checked.issueLineCount) })}
      </p>
      <ul className="max-h-60 list-disc overflow-y-auto pl-5">
        {checked.issues.map((issue) => (
          <li key={`${issue.line}-${issue.column}-${issue.message}`}>
            {issue.column
              ? m.books_import_problem_column({
                  line: String(issue.line),
                  column: issue.column,
                  message: translateMessage(issue.message),
                })
              : m.books_import_problem({ line: String(issue.line), message: translateMessage(issue.message) })}
          </li>
        ))}
      </ul>
      {checked.issueCount > checked.issues.length ? (
        <p>{m.books_import_more({ count: String(checked.issueCount - checked.issues.length) })}</p>
      ) : null}
    </div>
  )
}

/** A file without problems: how many rows it imports, and the first of them as they will be stored. */
/** The preview shows a file's books as the list would: the definition's columns. */
const previewed = keysWhere(bookEntity, isColumn)

function ImportPreview({ checked }: { checked: CheckedFile }) {
  return (
    <div className="grid gap-2 text-sm">
      <p role="status" data-testid="import-ready">
        {m.books_import_ready({ rows: count(checked.rowCount) })}
      </p>
      <p className="font-medium">{m.books_import_preview()}</p>
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full text-left">
          <thead className="border-b bg-muted/50 text-muted-foreground">
            <tr>
              {previewed.map((key) => (
                <th key={key} scope="col" className="px-2 py-1 font-medium">
                  {columnLabelOf(bookEntity.fields[key])()}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {checked.preview.map((row) => (
              <tr key={row.line} className="border-b last:border-0">
                {previewed.map((key) => (
                  <td key={key} className="px-2 py-1">
                    {shownValueOf(bookEntity.fields[key], row[key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
