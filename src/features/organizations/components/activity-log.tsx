import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ActivityIcon, ListFilterIcon } from 'lucide-react'
import { appActivityActions } from '#/activity-actions.gen'
import { ListFilterSelect } from '#/components/list-filters'
import { ListBody, ListToolbar, useListScreen } from '#/components/list-screen'
import { ListTable, listColumnHelper } from '#/components/list-table'
import { PageHeader } from '#/components/page-header'
import { PersonAvatar } from '#/components/person-avatar'
import type { AppActivityAction } from '#/lib/activity-actions'
import { useConsoleSession } from '#/lib/console-session'
import { roleLabel, rolesLabel } from '#/lib/role-labels'
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
  role_created: (actor, d) => m.activity_role_created({ actor, role: roleLabel(d.role ?? '') }),
  role_updated: (actor, d) => m.activity_role_updated({ actor, role: roleLabel(d.role ?? '') }),
  role_deleted: (actor, d) => m.activity_role_deleted({ actor, role: roleLabel(d.role ?? '') }),
  ...Object.fromEntries(
    Object.entries(appActivityActions as Readonly<Record<string, AppActivityAction>>).map(([action, { sentence }]) => [
      action,
      sentence,
    ]),
  ),
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

const column = listColumnHelper<ActivityEntry>()

/** The columns a reader may hide (what happened always shows). */
const hideableActivityColumns = [
  ['createdAt', m.activity_col_when],
  ['actorName', m.activity_col_who],
] as const

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
    column.accessor('actorName', {
      header: m.activity_col_who,
      enableSorting: false,
      cell: ({ row }) => (
        <span className="flex items-center gap-2">
          <PersonAvatar
            person={{ name: row.original.actorName, image: row.original.actorImage }}
            size="sm"
            testId="activity-actor-picture"
          />
          <span className="break-words">{row.original.actorName}</span>
        </span>
      ),
    }),
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
  const input = activityListInputOf(search)
  const list = useListScreen({
    search,
    onSearchChange,
    query: useQuery({ ...trpc.organizations.activity.queryOptions(input), placeholderData: keepPreviousData }),
    paging: input,
    filterKeys: ['kind'],
    columnsStorageKey: 'hatch.activity.columns',
  })
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={m.activity_title()}
        description={m.activity_description({ organization: organization.name })}
      />
      <ListToolbar list={list} hideableColumns={hideableActivityColumns}>
        <ListFilterSelect
          label={m.activity_filter_kind()}
          value={search.kind}
          onChange={(kind) => list.refine({ kind: kind as ActivityKind | undefined })}
          options={[
            ['', m.activity_kind_any()],
            ...Object.entries(kindLabels).map(([kind, label]): [string, string] => [kind, label()]),
          ]}
        />
        <ListFilterSelect
          label={m.activity_order()}
          value={input.direction}
          onChange={(direction) => list.refine({ direction: direction === 'asc' ? 'asc' : 'desc' })}
          options={[
            ['desc', m.activity_order_newest()],
            ['asc', m.activity_order_oldest()],
          ]}
        />
      </ListToolbar>
      <ListBody
        list={list}
        empty={{ icon: ActivityIcon, title: m.activity_empty_title(), description: m.activity_empty() }}
        noMatch={{
          icon: ListFilterIcon,
          title: m.activity_no_match_title(),
          description: m.activity_no_match(),
          clearLabel: m.activity_show_all(),
        }}
      >
        <ListTable
          list={list}
          columns={activityColumns}
          sorting={{
            column: 'createdAt',
            direction: input.direction,
            onChange: (_column, direction) => list.refine({ direction }),
          }}
          testId="activity-list"
          rowTestId="activity-row"
        />
      </ListBody>
    </div>
  )
}
