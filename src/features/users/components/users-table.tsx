import { Link } from '@tanstack/react-router'
import {
  type ColumnVisibilityState,
  columnVisibilityFeature,
  createColumnHelper,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table'
import { useMemo } from 'react'
import { DataTable, resolvedUpdater } from '#/components/data-table'
import { currentIntlLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import type { UserSortColumn } from '../search'
import type { UserRow } from '../user-queries'
import { UserAvatar, UserBadges } from './user-badges'

const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature })
const column = createColumnHelper<typeof features, UserRow>()

/** The columns an admin may hide (the name always shows). */
export const hideableUserColumns = [
  ['email', m.users_col_email],
  ['role', m.users_col_role],
  ['status', m.users_col_status],
  ['createdAt', m.users_col_joined],
] as const

/** Made once per language: cells are components to TanStack Table, so new functions would remount every cell. */
function useColumns() {
  const locale = currentIntlLocale()
  return useMemo(() => userColumns(locale), [locale])
}

function userColumns(locale: string) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })
  return column.columns([
    column.accessor('name', {
      header: m.users_col_name,
      enableHiding: false,
      cell: ({ row }) => (
        <div className="flex min-w-44 items-center gap-3">
          <UserAvatar name={row.original.name} image={row.original.image} />
          <div className="min-w-0">
            <Link
              to="/console/users/$userId"
              params={{ userId: row.original.id }}
              className="font-medium break-words underline-offset-4 hover:underline"
            >
              {row.original.name}
            </Link>
            {row.original.username ? <p className="text-xs text-muted-foreground">@{row.original.username}</p> : null}
          </div>
        </div>
      ),
    }),
    column.accessor('email', {
      header: m.users_col_email,
      cell: (info) => <span className="whitespace-nowrap">{emailOf(info.row.original)}</span>,
    }),
    column.accessor('role', {
      header: m.users_col_role,
      enableSorting: false,
      cell: (info) => (info.getValue().split(',').includes('admin') ? m.users_role_admin() : m.users_role_user()),
    }),
    column.display({
      id: 'status',
      header: m.users_col_status,
      enableSorting: false,
      cell: ({ row }) => <UserBadges user={row.original} />,
    }),
    column.accessor('createdAt', { header: m.users_col_joined, cell: (info) => date.format(info.getValue()) }),
  ])
}

const emailOf = (user: UserRow) => (user.isAnonymous ? '—' : user.email)

export function UsersTable({
  rows,
  loading,
  sort,
  direction,
  onSortChange,
  columnVisibility,
  onColumnVisibilityChange,
}: {
  rows: UserRow[]
  loading: boolean
  sort: UserSortColumn
  direction: 'asc' | 'desc'
  onSortChange: (sort: UserSortColumn, direction: 'asc' | 'desc') => void
  columnVisibility: ColumnVisibilityState
  onColumnVisibilityChange: (visibility: ColumnVisibilityState) => void
}) {
  const columns = useColumns()
  const sorting: SortingState = [{ id: sort, desc: direction === 'desc' }]
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (user) => user.id,
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting, columnVisibility },
    onSortingChange: resolvedUpdater(sorting, (next) => {
      const first = next[0]
      if (first) onSortChange(first.id as UserSortColumn, first.desc ? 'desc' : 'asc')
    }),
    onColumnVisibilityChange: resolvedUpdater(columnVisibility, onColumnVisibilityChange),
  })
  return <DataTable table={table} loading={loading} testId="users-table" rowTestId="user-row" />
}
