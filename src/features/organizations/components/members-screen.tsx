import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { SearchIcon, UserPlusIcon, UsersRoundIcon, XIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { ColumnVisibilityMenu, useStoredColumnVisibility } from '#/components/data-table'
import { EmptyState } from '#/components/empty-state'
import { ListFilterSelect } from '#/components/list-filter-select'
import { ListPager, useLastPageWhenPastTheEnd } from '#/components/list-pager'
import { PageHeader } from '#/components/page-header'
import { SearchBox } from '#/components/search-box'
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
import { type MemberRow, useAssignableRoles } from '../organization-queries'
import type { MemberListSearch } from '../search'
import { MemberRoleDialog } from './member-role-dialog'
import { hideableMemberColumns, type MemberAction, MembersTable } from './members-table'

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

const noFilters = { q: undefined, role: undefined } satisfies Partial<MemberListSearch>

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
  const refresh = useAuthRefresh()
  const trpc = useTRPC()
  const canInvite = useCan({ invitation: ['create'] })
  const roles = useAssignableRoles()
  const [pending, setPending] = useState<MemberAction | null>(null)
  const [visibility, setVisibility] = useStoredColumnVisibility('hatch.members.columns')
  const input = memberListInputOf(search)
  const list = useQuery({ ...trpc.organizations.members.queryOptions(input), placeholderData: keepPreviousData })
  const transfer = useMutation(trpc.organizations.transferOwnership.mutationOptions())
  const filtering = search.q !== undefined || search.role !== undefined
  const refine = (change: Partial<MemberListSearch>, options?: { replace?: boolean }) =>
    onSearchChange({ ...change, page: undefined }, options)
  const rows = list.data?.items ?? []
  useLastPageWhenPastTheEnd({
    page: input.page,
    size: input.limit,
    total: list.data?.total,
    rowsShown: rows.length,
    settled: list.isSuccess && !list.isPlaceholderData,
    onChange: onSearchChange,
  })
  // A role named in the URL stays choosable while the organization's own roles load.
  const roleOptions = search.role && !roles.includes(search.role) ? [...roles, search.role] : roles

  // Each refresh below also refetches this list: it invalidates every `organizations.*` procedure.
  const remove = async (member: MemberRow) => {
    setPending(null)
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

  const transferTo = async (member: MemberRow) => {
    setPending(null)
    try {
      await transfer.mutateAsync({ memberId: member.id })
    } catch (error) {
      toast.error(describeError(error))
      return
    }
    toast.success(m.members_transferred({ name: member.name }))
    await refresh.activeMember()
  }

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
      <search className="mb-4 flex flex-wrap items-end gap-3">
        <SearchBox
          value={search.q ?? ''}
          placeholder={m.members_search_placeholder()}
          onChange={(q) => refine({ q: q.trim() || undefined }, { replace: true })}
        />
        <ListFilterSelect
          label={m.members_filter_role()}
          value={search.role}
          onChange={(role) => refine({ role })}
          options={[
            ['', m.members_filter_any_role()],
            ...roleOptions.map((role): [string, string] => [role, roleLabel(role)]),
          ]}
        />
        {filtering ? (
          <Button variant="ghost" onClick={() => refine(noFilters)}>
            <XIcon aria-hidden />
            {m.members_filter_clear()}
          </Button>
        ) : null}
        <ColumnVisibilityMenu columns={hideableMemberColumns} visibility={visibility} onChange={setVisibility} />
      </search>

      {list.isError ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 p-4 text-sm"
        >
          <span>{describeError(list.error)}</span>
          <Button variant="outline" size="sm" onClick={() => list.refetch()}>
            {m.retry()}
          </Button>
        </div>
      ) : !list.isPending && rows.length === 0 ? (
        <EmptyState
          icon={filtering ? SearchIcon : UsersRoundIcon}
          title={m.members_no_match_title()}
          action={
            filtering ? (
              <Button variant="outline" onClick={() => refine(noFilters)}>
                {m.members_filter_clear()}
              </Button>
            ) : undefined
          }
        >
          {m.members_no_match()}
        </EmptyState>
      ) : (
        <>
          <MembersTable
            rows={rows}
            loading={list.isPending}
            sort={input.sort}
            direction={input.direction}
            onSortChange={(sort, direction) => refine({ sort, direction })}
            columnVisibility={visibility}
            onColumnVisibilityChange={setVisibility}
            onAction={setPending}
          />
          <ListPager
            page={input.page}
            size={input.limit}
            total={list.data?.total ?? 0}
            onChange={(change) => onSearchChange(change)}
          />
        </>
      )}
      {pending?.kind === 'role' ? <MemberRoleDialog member={pending.member} onClose={() => setPending(null)} /> : null}
      {pending?.kind === 'remove' ? (
        <ConfirmDialog
          title={m.members_remove_title({ name: pending.member.name })}
          body={m.members_remove_body({ organization: session.organization.name })}
          confirm={m.members_remove()}
          onConfirm={() => remove(pending.member)}
          onClose={() => setPending(null)}
        />
      ) : null}
      {pending?.kind === 'transfer' ? (
        <ConfirmDialog
          title={m.members_transfer_title({ name: pending.member.name })}
          body={m.members_transfer_body({ name: pending.member.name })}
          confirm={m.members_transfer()}
          onConfirm={() => transferTo(pending.member)}
          onClose={() => setPending(null)}
        />
      ) : null}
    </div>
  )
}
