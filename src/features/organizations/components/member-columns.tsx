import { CrownIcon, UserMinusIcon, UserRoundCogIcon } from 'lucide-react'
import type { RefObject } from 'react'
import { listColumnHelper } from '#/components/list-table'
import { PersonAvatar } from '#/components/person-avatar'
import { RowActionsMenu } from '#/components/row-actions-menu'
import { DropdownMenuItem } from '#/components/ui/dropdown-menu'
import { parseRoleList } from '#/lib/access-control'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { rolesLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'
import type { MemberRow } from '../organization-queries'

export type MemberAction = { kind: 'role' | 'remove' | 'transfer'; member: MemberRow }

const column = listColumnHelper<MemberRow>()

/** The columns a viewer may hide (the name always shows). */
export const hideableMemberColumns = [
  ['email', m.members_col_email],
  ['role', m.members_col_role],
  ['createdAt', m.members_col_joined],
] as const

function MemberName({ member }: { member: MemberRow }) {
  const session = useConsoleSession()
  return (
    <div className="flex min-w-40 items-center gap-3">
      <PersonAvatar person={member} testId="member-picture" />
      <p className="min-w-0 font-medium break-words">
        {member.name}
        {member.userId === session.user.id ? (
          <span className="ml-2 text-xs font-normal text-muted-foreground">{m.members_you()}</span>
        ) : null}
      </p>
    </div>
  )
}

/** What the viewer may do to this member: nothing to themselves, and only what their roles allow. */
function MemberActions({ member, onAction }: { member: MemberRow; onAction: (action: MemberAction) => void }) {
  const session = useConsoleSession()
  const canUpdate = useCan({ member: ['update'] })
  const canRemove = useCan({ member: ['delete'] })
  const isSelf = member.userId === session.user.id
  const callerIsOwner = session.member.roles.includes('owner')
  const targetIsOwner = parseRoleList(member.role).includes('owner')
  const canTransfer = callerIsOwner && !isSelf && !targetIsOwner
  if (isSelf || !(canUpdate || canRemove || canTransfer)) return null
  return (
    <RowActionsMenu label={m.members_actions_for({ name: member.name })}>
      {canUpdate ? (
        <DropdownMenuItem onSelect={() => onAction({ kind: 'role', member })}>
          <UserRoundCogIcon aria-hidden />
          {m.members_change_role()}
        </DropdownMenuItem>
      ) : null}
      {canTransfer ? (
        <DropdownMenuItem onSelect={() => onAction({ kind: 'transfer', member })}>
          <CrownIcon aria-hidden />
          {m.members_transfer()}
        </DropdownMenuItem>
      ) : null}
      {canRemove ? (
        <DropdownMenuItem onSelect={() => onAction({ kind: 'remove', member })} className="text-destructive">
          <UserMinusIcon aria-hidden />
          {m.members_remove()}
        </DropdownMenuItem>
      ) : null}
    </RowActionsMenu>
  )
}

/** The members list's columns, with each row's menu of what the viewer may change. */
export function memberColumns(locale: string, onAction: RefObject<((action: MemberAction) => void) | undefined>) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })
  return column.columns([
    column.accessor('name', {
      header: m.members_col_name,
      enableHiding: false,
      cell: ({ row }) => <MemberName member={row.original} />,
    }),
    column.accessor('email', {
      header: m.members_col_email,
      cell: (info) => <span className="whitespace-nowrap text-muted-foreground">{info.getValue()}</span>,
    }),
    column.accessor('role', {
      header: m.members_col_role,
      enableSorting: false,
      cell: (info) => <span data-testid="member-role">{rolesLabel(info.getValue())}</span>,
    }),
    column.accessor('createdAt', {
      header: m.members_col_joined,
      cell: (info) => <span className="whitespace-nowrap">{date.format(info.getValue())}</span>,
    }),
    column.display({
      id: 'actions',
      enableSorting: false,
      enableHiding: false,
      header: () => null,
      cell: ({ row }) => (
        <div className="flex justify-end">
          <MemberActions member={row.original} onAction={(action) => onAction.current?.(action)} />
        </div>
      ),
    }),
  ])
}
