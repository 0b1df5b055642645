import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react'
import { useEffect, useId, useRef } from 'react'
import { Button } from '#/components/ui/button'
import { NativeSelect } from '#/components/ui/select'
import { currentIntlLocale } from '#/lib/i18n'
import { type ListPageSize, listPageSizes, pageCountOf } from '#/lib/list-paging'
import { m } from '#/paraglide/messages'

export interface PageChange {
  page?: number
  size?: ListPageSize
}

/**
 * The page numbers to offer: the first and last, and the current page with one on each side; `gap` marks the pages
 * left out. Seven places at most, so the row never wraps on a laptop.
 */
export function pageNumbersAround(page: number, pageCount: number): (number | 'gap')[] {
  const run = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)
  if (pageCount <= 7) return run(1, pageCount)
  // Near either end the run reaches it, so a gap never stands for a single page.
  if (page <= 4) return [...run(1, 5), 'gap', pageCount]
  if (page >= pageCount - 3) return [1, 'gap', ...run(pageCount - 4, pageCount)]
  return [1, 'gap', page - 1, page, page + 1, 'gap', pageCount]
}

/**
 * Below every console list: which rows show out of how many, how many rows a page holds, and the pages by number
 * (on a phone, "page 3 of 80" between previous and next).
 */
export function ListPager({
  page,
  size,
  total,
  onChange,
}: {
  page: number
  size: number
  total: number
  /** A new page size starts again from the first page. */
  onChange: (change: PageChange) => void
}) {
  const sizeId = useId()
  const pageCount = pageCountOf(total, size)
  const number = new Intl.NumberFormat(currentIntlLocale())
  const from = total === 0 ? 0 : Math.min(total, (page - 1) * size + 1)
  const to = Math.min(total, page * size)
  const go = (target: number) => onChange({ page: target === 1 ? undefined : target })
  return (
    <nav
      aria-label={m.table_pagination()}
      className="mt-4 flex flex-wrap items-center justify-between gap-x-6 gap-y-3 text-sm"
      data-testid="list-pager"
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-muted-foreground">
        <span data-testid="list-range" aria-live="polite">
          {m.table_page_range({ from: number.format(from), to: number.format(to), total: number.format(total) })}
        </span>
        <span className="flex items-center gap-2">
          <label htmlFor={sizeId}>{m.table_rows_per_page()}</label>
          <NativeSelect
            id={sizeId}
            className="h-8 w-20"
            value={String(size)}
            onChange={(event) =>
              onChange({
                size: listPageSizes.find((option) => option === Number(event.target.value)),
                page: undefined,
              })
            }
          >
            {listPageSizes.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </NativeSelect>
        </span>
      </div>
      <div className="flex items-center gap-1">
        <Button
          variant="outline"
          size="sm"
          disabled={page <= 1}
          onClick={() => go(page - 1)}
          aria-label={m.table_previous()}
        >
          <ChevronLeftIcon aria-hidden />
          <span className="max-sm:sr-only">{m.table_previous_short()}</span>
        </Button>
        <span className="px-2 sm:hidden" data-testid="list-page-of">
          {m.table_page_of({ page: number.format(page), pages: number.format(pageCount) })}
        </span>
        <ol className="flex items-center gap-1 max-sm:hidden">
          {pageNumbersAround(page, pageCount).map((item, index) =>
            item === 'gap' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: at most two gaps, told apart by where they stand.
              <li key={`gap-${index}`} aria-hidden className="px-1 text-muted-foreground">
                …
              </li>
            ) : (
              <li key={item}>
                <Button
                  variant={item === page ? 'default' : 'ghost'}
                  size="sm"
                  className="min-w-8 tabular-nums"
                  aria-current={item === page ? 'page' : undefined}
                  aria-label={m.table_go_to_page({ page: number.format(item) })}
                  onClick={() => go(item)}
                >
                  {number.format(item)}
                </Button>
              </li>
            ),
          )}
        </ol>
        <Button
          variant="outline"
          size="sm"
          disabled={page >= pageCount}
          onClick={() => go(page + 1)}
          aria-label={m.table_next()}
        >
          <span className="max-sm:sr-only">{m.table_next_short()}</span>
          <ChevronRightIcon aria-hidden />
        </Button>
      </div>
    </nav>
  )
}

/**
 * A page past the end (the last rows were just deleted, or an old address) moves to the last page that has rows,
 * instead of showing an empty list that claims nothing matches.
 */
export function useLastPageWhenPastTheEnd({
  page,
  size,
  total,
  rowsShown,
  settled,
  onChange,
}: {
  page: number
  size: number
  total: number | undefined
  rowsShown: number
  /** The rows shown are this page's own (not a previous page's kept on screen while it loads). */
  settled: boolean
  onChange: (change: PageChange, options: { replace: boolean }) => void
}) {
  const pastTheEnd = settled && page > 1 && rowsShown === 0 && total !== undefined
  const lastPage = total === undefined ? 1 : pageCountOf(total, size)
  // The screen's callback is new on every render; the move depends only on where the list stands.
  const change = useRef(onChange)
  change.current = onChange
  useEffect(() => {
    if (pastTheEnd) change.current({ page: lastPage === 1 ? undefined : lastPage }, { replace: true })
  }, [pastTheEnd, lastPage])
}
