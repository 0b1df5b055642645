import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { PlusIcon, SearchIcon, UsersIcon, XIcon } from 'lucide-react'
import { useId, useState } from 'react'
import { ColumnVisibilityMenu, useStoredColumnVisibility } from '#/components/data-table'
import { EmptyState } from '#/components/empty-state'
import { ListFilterSelect } from '#/components/list-filter-select'
import { ListPager, useLastPageWhenPastTheEnd } from '#/components/list-pager'
import { PageHeader } from '#/components/page-header'
import { SearchBox } from '#/components/search-box'
import { Button } from '#/components/ui/button'
import { Input } from '#/components/ui/input'
import { describeError } from '#/lib/errors'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import type { UserListSearch } from '../search'
import { userFiltersOf, userListInputOf } from '../user-queries'
import { CreateUserDialog } from './user-dialogs'
import { hideableUserColumns, UsersTable } from './users-table'

const noFilters = {
  q: undefined,
  role: undefined,
  status: undefined,
  verified: undefined,
  kind: undefined,
  joinedFrom: undefined,
  joinedTo: undefined,
} satisfies Partial<UserListSearch>

function DateFilter({ label, value, onChange }: { label: string; value?: string; onChange: (day?: string) => void }) {
  const id = useId()
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </label>
      <Input
        id={id}
        type="date"
        className="w-40"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      />
    </div>
  )
}

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
  const [visibility, setVisibility] = useStoredColumnVisibility('hatch.users.columns')
  const list = useQuery({ ...trpc.users.list.queryOptions(userListInputOf(search)), placeholderData: keepPreviousData })
  const count = useQuery(trpc.users.count.queryOptions(userFiltersOf(search)))
  const filtering = Object.keys(noFilters).some((key) => search[key as keyof typeof noFilters] !== undefined)
  const refine = (change: Partial<UserListSearch>, options?: { replace?: boolean }) =>
    onSearchChange({ ...change, page: undefined }, options)
  const rows = list.data?.items ?? []
  const input = userListInputOf(search)
  useLastPageWhenPastTheEnd({
    page: input.page,
    size: input.limit,
    total: list.data?.total,
    rowsShown: rows.length,
    settled: list.isSuccess && !list.isPlaceholderData,
    onChange: onSearchChange,
  })

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
      <search className="mb-4 flex flex-wrap items-end gap-3">
        <SearchBox
          value={search.q ?? ''}
          placeholder={m.users_search_placeholder()}
          onChange={(q) => refine({ q: q.trim() || undefined }, { replace: true })}
        />
        <ListFilterSelect
          label={m.users_filter_role()}
          value={search.role}
          onChange={(role) => refine({ role: role as UserListSearch['role'] })}
          options={[
            ['', m.users_filter_any()],
            ['admin', m.users_role_admin()],
            ['user', m.users_role_user()],
          ]}
        />
        <ListFilterSelect
          label={m.users_filter_status()}
          value={search.status}
          onChange={(status) => refine({ status: status as UserListSearch['status'] })}
          options={[
            ['', m.users_filter_any()],
            ['active', m.users_status_active()],
            ['banned', m.users_status_banned()],
          ]}
        />
        <ListFilterSelect
          label={m.users_filter_verified()}
          value={search.verified}
          onChange={(verified) => refine({ verified: verified as UserListSearch['verified'] })}
          options={[
            ['', m.users_filter_any()],
            ['yes', m.users_verified_yes()],
            ['no', m.users_verified_no()],
          ]}
        />
        <ListFilterSelect
          label={m.users_filter_kind()}
          value={search.kind}
          onChange={(kind) => refine({ kind: kind as UserListSearch['kind'] })}
          options={[
            ['', m.users_kind_accounts()],
            ['guests', m.users_kind_guests()],
            ['all', m.users_kind_all()],
          ]}
        />
        <DateFilter
          label={m.users_filter_joined_from()}
          value={search.joinedFrom}
          onChange={(joinedFrom) => refine({ joinedFrom })}
        />
        <DateFilter
          label={m.users_filter_joined_to()}
          value={search.joinedTo}
          onChange={(joinedTo) => refine({ joinedTo })}
        />
        {filtering ? (
          <Button variant="ghost" onClick={() => refine(noFilters)}>
            <XIcon aria-hidden />
            {m.users_filter_clear()}
          </Button>
        ) : null}
        <ColumnVisibilityMenu columns={hideableUserColumns} visibility={visibility} onChange={setVisibility} />
      </search>

      <p className="mb-3 min-h-5 text-sm text-muted-foreground" aria-live="polite" data-testid="users-total">
        {count.data !== undefined ? m.users_total({ count: String(count.data) }) : null}
      </p>

      {list.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {describeError(list.error)}
        </p>
      ) : !list.isPending && rows.length === 0 ? (
        <EmptyState
          icon={filtering ? SearchIcon : UsersIcon}
          title={m.users_no_match_title()}
          action={
            filtering ? (
              <Button variant="outline" onClick={() => refine(noFilters)}>
                {m.users_filter_clear()}
              </Button>
            ) : undefined
          }
        >
          {m.users_no_match()}
        </EmptyState>
      ) : (
        <>
          <UsersTable
            rows={rows}
            loading={list.isPending}
            sort={input.sort}
            direction={input.direction}
            onSortChange={(sort, direction) => refine({ sort, direction })}
            columnVisibility={visibility}
            onColumnVisibilityChange={setVisibility}
          />
          <ListPager
            page={input.page}
            size={input.limit}
            total={list.data?.total ?? 0}
            onChange={(change) => onSearchChange(change)}
          />
        </>
      )}
      <CreateUserDialog open={creating} onOpenChange={setCreating} />
    </>
  )
}
