import { keepPreviousData, useQuery } from '@tanstack/react-query'
import {
  type ColumnVisibilityState,
  columnVisibilityFeature,
  createColumnHelper,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table'
import { ActivityIcon, ListFilterIcon } from 'lucide-react'
import { useMemo } from 'react'
import { ColumnVisibilityMenu, DataTable, resolvedUpdater, useStoredColumnVisibility } from '#/components/data-table'
import { EmptyState } from '#/components/empty-state'
import { ListFilterSelect } from '#/components/list-filter-select'
import { ListPager, useLastPageWhenPastTheEnd } from '#/components/list-pager'
import { PageHeader } from '#/components/page-header'
import { Button } from '#/components/ui/button'
import { useConsoleSession } from '#/lib/console-session'
import { describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { activityListInputOf } from '../list-inputs'
import type { ActivityEntry } from '../organization-queries'
import type { ActivityKind, ActivityListSearch } from '../search'

type Details = Record<string, string>

/** One sentence per recorded action (server/organization-activity.ts), in the reader's language. */
const sentences: Record<string, (actor: string, details: Details) => string> = {
  organization_created: (actor, d) => m.activity_organization_created({ actor, name: d.name ?? '' }),
  organization_updated: (actor, d) => m.activity_organization_updated({ actor, name: d.name ?? '' }),
  member_invited: (actor, d) =>
    m.activity_member_invited({ actor, email: d.email ?? '', role: rolesLabel(d.role ?? '') }),
  invitation_canceled: (actor, d) => m.activity_invitation_canceled({ actor, email: d.email ?? '' }),
  invitation_rejected: (actor, d) => m.activity_invitation_rejected({ actor, email: d.email ?? '' }),
  member_joined: (actor, d) => m.activity_member_joined({ actor, role: rolesLabel(d.role ?? '') }),
  member_added: (actor, d) => m.activity_member_added({ actor, name: d.name ?? '', role: rolesLabel(d.role ?? '') }),
  member_removed: (actor, d) => m.activity_member_removed({ actor, name: d.name ?? '' }),
  member_left: (actor) => m.activity_member_left({ actor }),
  member_role_changed: (actor, d) =>
    m.activity_member_role_changed({
      actor,
      name: d.name ?? '',
      from: rolesLabel(d.from ?? ''),
      to: rolesLabel(d.to ?? ''),
    }),
  ownership_transferred: (actor, d) => m.activity_ownership_transferred({ actor, name: d.name ?? '' }),
  team_created: (actor, d) => m.activity_team_created({ actor, team: d.team ?? '' }),
  team_renamed: (actor, d) => m.activity_team_renamed({ actor, team: d.team ?? '' }),
  team_deleted: (actor, d) => m.activity_team_deleted({ actor, team: d.team ?? '' }),
  team_member_added: (actor, d) => m.activity_team_member_added({ actor, name: d.name ?? '', team: d.team ?? '' }),
  team_member_removed: (actor, d) => m.activity_team_member_removed({ actor, name: d.name ?? '', team: d.team ?? '' }),
  role_created: (actor, d) => m.activity_role_created({ actor, role: d.role ?? '' }),
  role_updated: (actor, d) => m.activity_role_updated({ actor, role: d.role ?? '' }),
  role_deleted: (actor, d) => m.activity_role_deleted({ actor, role: d.role ?? '' }),
}

function describeActivity(action: string, actor: string, details: Details): string {
  return Object.hasOwn(sentences, action)
    ? (sentences[action]?.(actor, details) ?? action)
    : m.activity_other({ actor })
}

const kindLabels: Record<ActivityKind, () => string> = {
  organization: m.activity_kind_organization,
  members: m.activity_kind_members,
  invitations: m.activity_kind_invitations,
  teams: m.activity_kind_teams,
  roles: m.activity_kind_roles,
}

const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature })
const column = createColumnHelper<typeof features, ActivityEntry>()

/** The columns a reader may hide (what happened always shows). */
const hideableActivityColumns = [
  ['createdAt', m.activity_col_when],
  ['actorName', m.activity_col_who],
] as const

/** Made once per language: cells are components to TanStack Table, so new functions would remount every cell. */
function activityColumns(locale: string) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
  return column.columns([
    column.accessor('createdAt', {
      header: m.activity_col_when,
      cell: (info) => (
        <time dateTime={info.getValue().toISOString()} className="whitespace-nowrap text-muted-foreground">
          {date.format(info.getValue())}
        </time>
      ),
    }),
    column.accessor('actorName', { header: m.activity_col_who, enableSorting: false }),
    column.display({
      id: 'what',
      header: m.activity_col_what,
      enableSorting: false,
      enableHiding: false,
      // The sentence names the actor too: it is one translated unit, worded differently in each language.
      // A sentence needs room: on a phone the table scrolls sideways inside its frame instead of crushing it.
      cell: ({ row }) => (
        <p className="min-w-56 break-words">
          {describeActivity(row.original.action, row.original.actorName, row.original.details)}
        </p>
      ),
    }),
  ])
}

function ActivityTable({
  rows,
  loading,
  direction,
  onDirectionChange,
  columnVisibility,
  onColumnVisibilityChange,
}: {
  rows: ActivityEntry[]
  loading: boolean
  direction: 'asc' | 'desc'
  onDirectionChange: (direction: 'asc' | 'desc') => void
  columnVisibility: ColumnVisibilityState
  onColumnVisibilityChange: (visibility: ColumnVisibilityState) => void
}) {
  const locale = currentIntlLocale()
  const columns = useMemo(() => activityColumns(locale), [locale])
  const sorting: SortingState = [{ id: 'createdAt', desc: direction === 'desc' }]
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (entry) => String(entry.id),
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting, columnVisibility },
    onSortingChange: resolvedUpdater(sorting, (next) => {
      const first = next[0]
      if (first) onDirectionChange(first.desc ? 'desc' : 'asc')
    }),
    onColumnVisibilityChange: resolvedUpdater(columnVisibility, onColumnVisibilityChange),
  })
  return <DataTable table={table} loading={loading} testId="activity-list" rowTestId="activity-row" />
}

/**
 * Who did what in the active organization (owners and admins): one type of entry or all, newest or oldest first.
 * The choice lives in the URL; pages follow cursors.
 */
export function ActivityLog({
  search,
  onSearchChange,
}: {
  search: ActivityListSearch
  /** Merged over the address's latest search, so two quick changes both count (the page's `search` lags a navigation). */
  onSearchChange: (change: Partial<ActivityListSearch>, options?: { replace?: boolean }) => void
}) {
  const { organization } = useConsoleSession()
  const trpc = useTRPC()
  const [visibility, setVisibility] = useStoredColumnVisibility('hatch.activity.columns')
  const input = activityListInputOf(search)
  const query = useQuery({ ...trpc.organizations.activity.queryOptions(input), placeholderData: keepPreviousData })
  const refine = (change: Partial<ActivityListSearch>) => onSearchChange({ ...change, page: undefined })
  const entries = query.data?.items ?? []
  useLastPageWhenPastTheEnd({
    page: input.page,
    size: input.limit,
    total: query.data?.total,
    rowsShown: entries.length,
    settled: query.isSuccess && !query.isPlaceholderData,
    onChange: onSearchChange,
  })
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={m.activity_title()}
        description={m.activity_description({ organization: organization.name })}
      />
      <search className="mb-4 flex flex-wrap items-end gap-3">
        <ListFilterSelect
          label={m.activity_filter_kind()}
          value={search.kind}
          onChange={(kind) => refine({ kind: kind as ActivityKind | undefined })}
          options={[
            ['', m.activity_kind_any()],
            ...Object.entries(kindLabels).map(([kind, label]): [string, string] => [kind, label()]),
          ]}
        />
        <ListFilterSelect
          label={m.activity_order()}
          value={input.direction}
          onChange={(direction) => refine({ direction: direction === 'asc' ? 'asc' : 'desc' })}
          options={[
            ['desc', m.activity_order_newest()],
            ['asc', m.activity_order_oldest()],
          ]}
        />
        <ColumnVisibilityMenu columns={hideableActivityColumns} visibility={visibility} onChange={setVisibility} />
      </search>
      {query.isError ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 p-4 text-sm"
        >
          <span>{describeError(query.error)}</span>
          <Button variant="outline" size="sm" onClick={() => query.refetch()}>
            {m.retry()}
          </Button>
        </div>
      ) : !query.isPending && entries.length === 0 ? (
        search.kind ? (
          <EmptyState
            icon={ListFilterIcon}
            title={m.activity_no_match_title()}
            action={
              <Button variant="outline" onClick={() => refine({ kind: undefined })}>
                {m.activity_show_all()}
              </Button>
            }
          >
            {m.activity_no_match()}
          </EmptyState>
        ) : (
          <EmptyState icon={ActivityIcon} title={m.activity_empty_title()}>
            {m.activity_empty()}
          </EmptyState>
        )
      ) : (
        <>
          <ActivityTable
            rows={entries}
            loading={query.isPending}
            direction={input.direction}
            onDirectionChange={(direction) => refine({ direction })}
            columnVisibility={visibility}
            onColumnVisibilityChange={setVisibility}
          />
          <ListPager
            page={input.page}
            size={input.limit}
            total={query.data?.total ?? 0}
            onChange={(change) => onSearchChange(change)}
          />
        </>
      )}
    </div>
  )
}
