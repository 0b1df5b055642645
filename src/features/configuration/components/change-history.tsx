import { useInfiniteQuery } from '@tanstack/react-query'
import { columnVisibilityFeature, createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table'
import { HistoryIcon } from 'lucide-react'
import { EmptyState } from '#/components/empty-state'
import { SettingsSection } from '#/components/settings-section'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import type { SiteSettingsInput } from '#/lib/site-settings'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { describeSettingValue, settingLabels } from './setting-labels'

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

function labelOf(setting: string): string {
  return Object.hasOwn(settingLabels, setting) ? settingLabels[setting as keyof SiteSettingsInput]() : setting
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
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })
  const columns = column.columns([
    column.accessor('createdAt', { header: m.config_changes_col_when, cell: (info) => date.format(info.getValue()) }),
    column.accessor('userName', { header: m.config_changes_col_who }),
    column.accessor('setting', { header: m.config_changes_col_setting, cell: (info) => labelOf(info.getValue()) }),
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
  const rows = query.data?.pages.flatMap((page) => page.items) ?? []
  const table = useTable({ features, columns, data: rows, getRowId: (row) => String(row.id) })

  return (
    <SettingsSection id="config-history" title={m.config_changes_title()}>
      <div className="mt-4">
        {query.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {describeError(query.error)}
          </p>
        ) : query.isPending ? (
          <div className="h-24 animate-pulse rounded-md bg-muted" aria-hidden />
        ) : rows.length === 0 ? (
          <EmptyState icon={HistoryIcon} title={m.config_changes_empty_title()}>
            {m.config_changes_empty()}
          </EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full text-sm" data-testid="config-changes">
              <thead className="border-b bg-muted/50 text-left">
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => (
                      <th key={header.id} scope="col" className="h-10 px-3 font-medium text-muted-foreground">
                        <table.FlexRender header={header} />
                      </th>
                    ))}
                  </tr>
                ))}
              </thead>
              <tbody>
                {table.getRowModel().rows.map((row) => (
                  <tr key={row.id} className="border-b last:border-0" data-testid="config-change">
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id} className="px-3 py-2 align-top">
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
