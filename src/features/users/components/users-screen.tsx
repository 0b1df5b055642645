import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { PlusIcon, UsersIcon } from 'lucide-react'
import { useState } from 'react'
import { ListFilterDate, ListFilterSelect } from '#/components/list-filters'
import { ListBody, ListStatus, ListToolbar, useListScreen } from '#/components/list-screen'
import { ListTable } from '#/components/list-table'
import { PageHeader } from '#/components/page-header'
import { Button } from '#/components/ui/button'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import type { UserListSearch, UserSortColumn } from '../search'
import { userFiltersOf, userListInputOf } from '../user-queries'
import { hideableUserColumns, userColumns } from './user-columns'
import { CreateUserDialog } from './user-dialogs'

/** The address's keys that narrow the list. */
const userFilterKeys = ['q', 'role', 'status', 'verified', 'kind', 'joinedFrom', 'joinedTo'] as const

/** Every account, for app admins: search, filters and order live in the URL; pages follow cursors. */
export function UsersScreen({
  search,
  onSearchChange,
}: {
  search: UserListSearch
  /** Merged over the address's latest search, so two quick changes both count (the page's `search` lags a navigation). */
  onSearchChange: (change: Partial<UserListSearch>, options?: { replace?: boolean }) => void
}) {
  const trpc = useTRPC()
  const [creating, setCreating] = useState(false)
  const input = userListInputOf(search)
  const list = useListScreen({
    search,
    onSearchChange,
    query: useQuery({ ...trpc.users.list.queryOptions(input), placeholderData: keepPreviousData }),
    paging: input,
    filterKeys: userFilterKeys,
    columnsStorageKey: 'hatch.users.columns',
  })
  const count = useQuery(trpc.users.count.queryOptions(userFiltersOf(search)))

  return (
    <>
      <PageHeader
        title={m.console_users()}
        description={m.console_users_description()}
        actions={
          <Button onClick={() => setCreating(true)}>
            <PlusIcon aria-hidden />
            {m.users_new()}
          </Button>
        }
      />
      <ListToolbar list={list} searchPlaceholder={m.users_search_placeholder()} hideableColumns={hideableUserColumns}>
        <UserFilters search={search} onChange={list.refine} />
      </ListToolbar>
      <ListStatus
        list={list}
        total={count.data === undefined ? undefined : m.users_total({ count: String(count.data) })}
      />
      <ListBody
        list={list}
        empty={{ icon: UsersIcon, title: m.users_no_match_title(), description: m.users_no_match() }}
        noMatch={{ title: m.users_no_match_title(), description: m.users_no_match() }}
      >
        <ListTable
          list={list}
          columns={userColumns}
          sorting={{
            column: input.sort,
            direction: input.direction,
            onChange: (sort: UserSortColumn, direction) => list.refine({ sort, direction }),
          }}
          testId="users-table"
          rowTestId="user-row"
        />
      </ListBody>
      <CreateUserDialog open={creating} onOpenChange={setCreating} />
    </>
  )
}

/** Role, status, confirmed address, kind of account and a range of joining days. */
function UserFilters({
  search,
  onChange,
}: {
  search: UserListSearch
  onChange: (change: Partial<UserListSearch>) => void
}) {
  return (
    <>
      <ListFilterSelect
        label={m.users_filter_role()}
        value={search.role}
        onChange={(role) => onChange({ role: role as UserListSearch['role'] })}
        options={[
          ['', m.users_filter_any()],
          ['admin', m.users_role_admin()],
          ['user', m.users_role_user()],
        ]}
      />
      <ListFilterSelect
        label={m.users_filter_status()}
        value={search.status}
        onChange={(status) => onChange({ status: status as UserListSearch['status'] })}
        options={[
          ['', m.users_filter_any()],
          ['active', m.users_status_active()],
          ['banned', m.users_status_banned()],
        ]}
      />
      <ListFilterSelect
        label={m.users_filter_verified()}
        value={search.verified}
        onChange={(verified) => onChange({ verified: verified as UserListSearch['verified'] })}
        options={[
          ['', m.users_filter_any()],
          ['yes', m.users_verified_yes()],
          ['no', m.users_verified_no()],
        ]}
      />
      <ListFilterSelect
        label={m.users_filter_kind()}
        value={search.kind}
        onChange={(kind) => onChange({ kind: kind as UserListSearch['kind'] })}
        options={[
          ['', m.users_kind_accounts()],
          ['guests', m.users_kind_guests()],
          ['all', m.users_kind_all()],
        ]}
      />
      <ListFilterDate
        label={m.users_filter_joined_from()}
        value={search.joinedFrom}
        onChange={(joinedFrom) => onChange({ joinedFrom })}
      />
      <ListFilterDate
        label={m.users_filter_joined_to()}
        value={search.joinedTo}
        onChange={(joinedTo) => onChange({ joinedTo })}
      />
    </>
  )
}
