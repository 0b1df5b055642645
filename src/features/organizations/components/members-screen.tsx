import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { UserPlusIcon, UsersRoundIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { ListFilterSelect } from '#/components/list-filters'
import { ListBody, ListToolbar, useListScreen } from '#/components/list-screen'
import { ListTable } from '#/components/list-table'
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
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { describeError } from '#/lib/errors'
import { roleLabel } from '#/lib/role-labels'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { memberListInputOf } from '../list-inputs'
import { useAssignableRoles } from '../organization-queries'
import type { MemberListSearch, MemberSortColumn } from '../search'
import { hideableMemberColumns, type MemberAction, memberColumns } from './member-columns'
import { MemberRoleDialog } from './member-role-dialog'

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

/**
 * Who is in the active organization, with their roles and join dates, and what the viewer may change about them.
 * Search, role filter and order live in the URL; pages follow cursors.
 */
export function MembersScreen({
  search,
  onSearchChange,
}: {
  search: MemberListSearch
  /** Merged over the address's latest search, so two quick changes both count (the page's `search` lags a navigation). */
  onSearchChange: (change: Partial<MemberListSearch>, options?: { replace?: boolean }) => void
}) {
  const session = useConsoleSession()
  const trpc = useTRPC()
  const canInvite = useCan({ invitation: ['create'] })
  const roles = useAssignableRoles()
  const [pending, setPending] = useState<MemberAction | null>(null)
  const input = memberListInputOf(search)
  const list = useListScreen({
    search,
    onSearchChange,
    query: useQuery({ ...trpc.organizations.members.queryOptions(input), placeholderData: keepPreviousData }),
    paging: input,
    filterKeys: ['q', 'role'],
    columnsStorageKey: 'hatch.members.columns',
  })
  // A role named in the URL stays choosable while the organization's own roles load.
  const roleOptions = search.role && !roles.includes(search.role) ? [...roles, search.role] : roles

  return (
    <div className="max-w-5xl">
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
      <ListToolbar
        list={list}
        searchPlaceholder={m.members_search_placeholder()}
        hideableColumns={hideableMemberColumns}
      >
        <ListFilterSelect
          label={m.members_filter_role()}
          value={search.role}
          onChange={(role) => list.refine({ role })}
          options={[
            ['', m.members_filter_any_role()],
            ...roleOptions.map((role): [string, string] => [role, roleLabel(role)]),
          ]}
        />
      </ListToolbar>
      <ListBody
        list={list}
        empty={{ icon: UsersRoundIcon, title: m.members_no_match_title(), description: m.members_no_match() }}
        noMatch={{ title: m.members_no_match_title(), description: m.members_no_match() }}
      >
        <ListTable
          list={list}
          columns={memberColumns}
          actions={setPending}
          sorting={{
            column: input.sort,
            direction: input.direction,
            onChange: (sort: MemberSortColumn, direction) => list.refine({ sort, direction }),
          }}
          testId="members-list"
          rowTestId="member-row"
        />
      </ListBody>
      {pending ? <MemberActionDialog action={pending} onClose={() => setPending(null)} /> : null}
    </div>
  )
}

/** Asks before a member is removed or made the owner, then does it; a role change has its own dialog. */
function MemberActionDialog({ action, onClose }: { action: MemberAction; onClose: () => void }) {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const trpc = useTRPC()
  const transfer = useMutation(trpc.organizations.transferOwnership.mutationOptions())
  const { member } = action

  // Each refresh below also refetches the list: it invalidates every `organizations.*` procedure.
  const remove = async () => {
    onClose()
    const { error } = await authClient.organization.removeMember({
      memberIdOrEmail: member.id,
      organizationId: session.organization.id,
    })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.members_removed({ name: member.name }))
    await refresh.activeOrganization()
  }

  const transferTo = async () => {
    onClose()
    try {
      await transfer.mutateAsync({ memberId: member.id })
    } catch (error) {
      toast.error(describeError(error))
      return
    }
    toast.success(m.members_transferred({ name: member.name }))
    await refresh.activeMember()
  }

  if (action.kind === 'role') return <MemberRoleDialog member={member} onClose={onClose} />
  return action.kind === 'remove' ? (
    <ConfirmDialog
      title={m.members_remove_title({ name: member.name })}
      body={m.members_remove_body({ organization: session.organization.name })}
      confirm={m.members_remove()}
      onConfirm={remove}
      onClose={onClose}
    />
  ) : (
    <ConfirmDialog
      title={m.members_transfer_title({ name: member.name })}
      body={m.members_transfer_body({ name: member.name })}
      confirm={m.members_transfer()}
      onConfirm={transferTo}
      onClose={onClose}
    />
  )
}
