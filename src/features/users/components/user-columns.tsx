import { Link } from '@tanstack/react-router'
import { listColumnHelper } from '#/components/list-table'
import { PersonAvatar } from '#/components/person-avatar'
import { m } from '#/paraglide/messages'
import type { UserRow } from '../user-queries'
import { UserBadges } from './user-badges'

const column = listColumnHelper<UserRow>()

/** The columns an admin may hide (the name always shows). */
export const hideableUserColumns = [
  ['email', m.users_col_email],
  ['role', m.users_col_role],
  ['status', m.users_col_status],
  ['createdAt', m.users_col_joined],
] as const

/** The users list's columns (the name links to the account's page). */
export function userColumns(locale: string) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })
  return column.columns([
    column.accessor('name', {
      header: m.users_col_name,
      enableHiding: false,
      cell: ({ row }) => (
        <div className="flex min-w-44 items-center gap-3">
          <PersonAvatar person={row.original} testId="user-picture" />
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
