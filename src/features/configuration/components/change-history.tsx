import { useInfiniteQuery } from '@tanstack/react-query'
import { columnVisibilityFeature, createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table'
import { HistoryIcon } from 'lucide-react'
import { useMemo } from 'react'
import { DataTable } from '#/components/data-table'
import { EmptyState } from '#/components/empty-state'
import { SettingsSection } from '#/components/settings-section'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { describeSettingValue, settingLabelOf } from './setting-labels'

interface Change {
  id: number
  userName: string
  setting: string
  oldValue: unknown
  newValue: unknown
  createdAt: Date
}

// getVisibleCells comes with the visibility feature; every column here always shows.
const features = tableFeatures({ columnVisibilityFeature })
const column = createColumnHelper<typeof features, Change>()

/** Made once per language: cells are components to TanStack Table, so new functions would remount every cell. */
function useColumns() {
  const locale = currentIntlLocale()
  return useMemo(() => changeColumns(locale), [locale])
}

function changeColumns(locale: string) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
  return column.columns([
    column.accessor('createdAt', { header: m.config_changes_col_when, cell: (info) => date.format(info.getValue()) }),
    column.accessor('userName', { header: m.config_changes_col_who }),
    column.accessor('setting', {
      header: m.config_changes_col_setting,
      cell: (info) => settingLabelOf(info.getValue()),
    }),
    column.display({
      id: 'change',
      header: m.config_changes_col_change,
      cell: ({ row }) => (
        <span className="break-words">
          {describeSettingValue(row.original.oldValue)} → {describeSettingValue(row.original.newValue)}
        </span>
      ),
    }),
  ])
}

/** Who changed which setting, when, from what to what: newest first, 20 at a time. */
export function ChangeHistory() {
  const trpc = useTRPC()
  const query = useInfiniteQuery(
    trpc.configuration.changes.infiniteQueryOptions(
      { limit: 20 },
      { getNextPageParam: (page) => page.nextCursor, initialCursor: undefined },
    ),
  )
  const columns = useColumns()
  const rows = query.data?.pages.flatMap((page) => page.items) ?? []
  const table = useTable({ features, columns, data: rows, getRowId: (row) => String(row.id) })

  return (
    <SettingsSection id="config-history" title={m.config_changes_title()}>
      <div className="mt-4">
        {query.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {describeError(query.error)}
          </p>
        ) : !query.isPending && rows.length === 0 ? (
          <EmptyState icon={HistoryIcon} title={m.config_changes_empty_title()}>
            {m.config_changes_empty()}
          </EmptyState>
        ) : (
          <DataTable table={table} loading={query.isPending} testId="config-changes" rowTestId="config-change" />
        )}
        {query.hasNextPage ? (
          <Button
            variant="outline"
            className="mt-3"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {m.config_changes_more()}
          </Button>
        ) : null}
      </div>
    </SettingsSection>
  )
}
