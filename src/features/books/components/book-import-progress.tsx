import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { toast } from 'sonner'
import { translateMessage } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { useBookListCache } from '../book-queries'

/** How often the page asks while an import runs. */
const runningRefetchMs = 1000

/**
 * Large imports run as jobs: while one runs, its progress shows above the list (for every member who can read the
 * books); when it ends the list refreshes, and one that stopped says why and how far it got.
 */
export function BookImportProgress() {
  const trpc = useTRPC()
  const cache = useBookListCache()
  const imports = useQuery({
    ...trpc.books.imports.queryOptions(),
    refetchInterval: (query) =>
      query.state.data?.some((entry) => entry.status === 'queued' || entry.status === 'running')
        ? runningRefetchMs
        : false,
  })
  // An import seen running that has now ended: the list refreshes, and a finished one is announced once. The
  // answer keeps its identity while nothing in it changed (TanStack Query's structural sharing).
  const seenRunning = useRef(new Set<string>())
  const refreshList = useRef(cache.refresh)
  refreshList.current = cache.refresh
  const entries = imports.data ?? []
  useEffect(() => {
    for (const entry of imports.data ?? []) {
      if (entry.status === 'queued' || entry.status === 'running') seenRunning.current.add(entry.id)
      else if (seenRunning.current.delete(entry.id)) {
        if (entry.status === 'done')
          toast.success(m.books_imported({ count: new Intl.NumberFormat(currentIntlLocale()).format(entry.imported) }))
        void refreshList.current()
      }
    }
  }, [imports.data])

  const number = new Intl.NumberFormat(currentIntlLocale())
  const shown = entries.filter((entry) => entry.status !== 'done')
  if (shown.length === 0) return null
  return (
    <div className="mb-4 grid gap-2" aria-live="polite">
      {shown.map((entry) =>
        entry.status === 'failed' ? (
          <p
            key={entry.id}
            role="alert"
            className="rounded-lg border border-destructive/40 p-3 text-sm"
            data-testid="book-import-failed"
          >
            {m.books_import_stopped({
              imported: number.format(entry.imported),
              total: number.format(entry.rowCount),
              reason: translateMessage(entry.error ?? 'import_failed'),
            })}
          </p>
        ) : (
          <div key={entry.id} className="rounded-lg border p-3 text-sm" data-testid="book-import-progress">
            <p>
              {m.books_import_running({
                imported: number.format(entry.imported),
                total: number.format(entry.rowCount),
              })}
            </p>
            <div
              role="progressbar"
              aria-label={m.books_import_progress_label()}
              aria-valuemin={0}
              aria-valuemax={entry.rowCount}
              aria-valuenow={entry.imported}
              className="mt-2 h-2 overflow-hidden rounded-full bg-muted"
            >
              <div
                className="h-full bg-primary transition-[width]"
                style={{ width: `${Math.round((entry.imported / Math.max(1, entry.rowCount)) * 100)}%` }}
              />
            </div>
          </div>
        ),
      )}
    </div>
  )
}
