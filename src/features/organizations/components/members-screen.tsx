import { useMutation } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { CrownIcon, EllipsisIcon, UserMinusIcon, UserPlusIcon, UserRoundCogIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { PageHeader } from '#/components/page-header'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '#/components/ui/dropdown-menu'
import { parseRoleList } from '#/lib/access-control'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { initialsOf } from '#/lib/session-user'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { type OrganizationMember, useFullOrganization } from '../organization-queries'
import { MemberRoleDialog } from './member-role-dialog'
import { QueryState } from './query-state'

type PendingAction = { kind: 'role' | 'remove' | 'transfer'; member: OrganizationMember } | null

function MemberActions({
  member,
  onAction,
}: {
  member: OrganizationMember
  onAction: (action: PendingAction) => void
}) {
  const session = useConsoleSession()
  const canUpdate = useCan({ member: ['update'] })
  const canRemove = useCan({ member: ['delete'] })
  const isSelf = member.userId === session.user.id
  const callerIsOwner = session.member.roles.includes('owner')
  const targetIsOwner = parseRoleList(member.role).includes('owner')
  const canTransfer = callerIsOwner && !isSelf && !targetIsOwner
  if (isSelf || !(canUpdate || canRemove || canTransfer)) return null
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={m.members_actions_for({ name: member.user.name })}>
          <EllipsisIcon aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
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
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

function ConfirmDialog({
  title,
  body,
  confirm,
  onConfirm,
  onClose,
}: {
  title: string
  body: string
  confirm: string
  onConfirm: () => void
  onClose: () => void
}) {
  return (
    <AlertDialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialogContent>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>{body}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.cancel()}</AlertDialogCancel>
          <Button variant="destructive" onClick={onConfirm}>
            {confirm}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** Who is in the active organization, with their roles and join dates, and what the viewer may change about them. */
export function MembersScreen() {
  const session = useConsoleSession()
  const query = useFullOrganization()
  const refresh = useAuthRefresh()
  const trpc = useTRPC()
  const canInvite = useCan({ invitation: ['create'] })
  const [pending, setPending] = useState<PendingAction>(null)
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  const transfer = useMutation(trpc.organizations.transferOwnership.mutationOptions())

  const remove = async (member: OrganizationMember) => {
    setPending(null)
    const { error } = await authClient.organization.removeMember({
      memberIdOrEmail: member.id,
      organizationId: session.organization.id,
    })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.members_removed({ name: member.user.name }))
    await refresh.activeOrganization()
  }

  const transferTo = async (member: OrganizationMember) => {
    setPending(null)
    try {
      await transfer.mutateAsync({ memberId: member.id })
    } catch (error) {
      toast.error(describeError(error))
      return
    }
    toast.success(m.members_transferred({ name: member.user.name }))
    await refresh.activeMember()
  }

  return (
    <div className="max-w-4xl">
      <PageHeader
        title={m.members_title()}
        description={m.members_description({ organization: session.organization.name })}
        actions={
          canInvite ? (
            <Button asChild>
              <Link to="/console/organization/invitations">
                <UserPlusIcon aria-hidden />
                {m.members_invite()}
              </Link>
            </Button>
          ) : null
        }
      />
      <QueryState query={query}>
        {(organization) => (
          <ul className="divide-y rounded-xl border" data-testid="members-list" aria-label={m.members_title()}>
            {organization.members.map((member) => (
              <li key={member.id} className="flex items-center gap-3 p-3 sm:p-4" data-testid="member-row">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-secondary text-xs font-semibold">
                  {initialsOf(member.user.name)}
                </span>
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">
                    {member.user.name}
                    {member.userId === session.user.id ? (
                      <span className="ml-2 text-xs font-normal text-muted-foreground">{m.members_you()}</span>
                    ) : null}
                  </p>
                  <p className="truncate text-sm text-muted-foreground">{member.user.email}</p>
                </div>
                <div className="hidden text-right text-sm sm:block">
                  <p data-testid="member-role">{rolesLabel(member.role)}</p>
                  <p className="text-muted-foreground">
                    {m.members_joined({ date: date.format(new Date(member.createdAt)) })}
                  </p>
                </div>
                <p className="text-sm sm:hidden" data-testid="member-role-compact">
                  {rolesLabel(member.role)}
                </p>
                <MemberActions member={member} onAction={setPending} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {pending?.kind === 'role' ? <MemberRoleDialog member={pending.member} onClose={() => setPending(null)} /> : null}
      {pending?.kind === 'remove' ? (
        <ConfirmDialog
          title={m.members_remove_title({ name: pending.member.user.name })}
          body={m.members_remove_body({ organization: session.organization.name })}
          confirm={m.members_remove()}
          onConfirm={() => remove(pending.member)}
          onClose={() => setPending(null)}
        />
      ) : null}
      {pending?.kind === 'transfer' ? (
        <ConfirmDialog
          title={m.members_transfer_title({ name: pending.member.user.name })}
          body={m.members_transfer_body({ name: pending.member.user.name })}
          confirm={m.members_transfer()}
          onConfirm={() => transferTo(pending.member)}
          onClose={() => setPending(null)}
        />
      ) : null}
    </div>
  )
}
