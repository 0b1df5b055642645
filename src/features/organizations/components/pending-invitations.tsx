import { MailIcon, RotateCwIcon, XIcon } from 'lucide-react'
import type { RefObject } from 'react'
import { toast } from 'sonner'
import { EmptyState } from '#/components/empty-state'
import { ListTable, listColumnHelper } from '#/components/list-table'
import { PersonAvatar } from '#/components/person-avatar'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { rolesLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'

interface Invitation {
  id: string
  email: string
  role: string
  expiresAt: Date | string
  /** Null once the inviter's account is gone. */
  inviter: { name: string; image: string | null } | null
}

interface InvitationActions {
  canCancel: boolean
  resend: (invitation: Invitation) => void
  cancel: (invitation: Invitation) => void
}

const column = listColumnHelper<Invitation>()

function invitationColumns(locale: string, actions: RefObject<InvitationActions | undefined>) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
  return column.columns([
    column.accessor('email', {
      header: m.invitations_col_email,
      cell: (info) => <span className="font-medium break-all">{info.getValue()}</span>,
    }),
    column.accessor('role', { header: m.invitations_col_role, cell: (info) => rolesLabel(info.getValue()) }),
    column.accessor('inviter', {
      header: m.invitations_col_invited_by,
      cell: (info) => {
        const inviter = info.getValue()
        return inviter ? (
          <span className="flex items-center gap-2" data-testid="invitation-inviter">
            <PersonAvatar person={inviter} size="sm" />
            <span className="break-words">{inviter.name}</span>
          </span>
        ) : (
          '—'
        )
      },
    }),
    column.accessor('expiresAt', {
      header: m.invitations_col_expires,
      cell: (info) => <span className="whitespace-nowrap">{date.format(new Date(info.getValue()))}</span>,
    }),
    column.display({
      id: 'actions',
      header: () => null,
      cell: ({ row }) => {
        const invitation = row.original
        const { canCancel, resend, cancel } = actions.current ?? { canCancel: false }
        // On a phone the buttons keep their icons only: the card's first line also holds the address.
        return (
          <div className="flex justify-end gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => resend?.(invitation)}
              aria-label={m.invitations_resend_to({ email: invitation.email })}
            >
              <RotateCwIcon aria-hidden />
              <span className="max-sm:sr-only">{m.invitations_resend()}</span>
            </Button>
            {canCancel ? (
              <Button
                variant="outline"
                size="sm"
                onClick={() => cancel?.(invitation)}
                aria-label={m.invitations_cancel_for({ email: invitation.email })}
              >
                <XIcon aria-hidden />
                <span className="max-sm:sr-only">{m.invitations_cancel()}</span>
              </Button>
            ) : null}
          </div>
        )
      },
    }),
  ])
}

/** The invitations still waiting for an answer, each to send again or cancel. */
export function PendingInvitations({ invitations }: { invitations: Invitation[] }) {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const canCancel = useCan({ invitation: ['cancel'] })

  const resend = async (invitation: Invitation) => {
    const { error } = await authClient.organization.inviteMember({
      email: invitation.email,
      role: invitation.role as 'member',
      organizationId: session.organization.id,
      resend: true,
    })
    if (error) toast.error(describeAuthError(error))
    else toast.success(m.invitations_resent({ email: invitation.email }))
    await refresh.activeOrganization()
  }

  const cancel = async (invitation: Invitation) => {
    const { error } = await authClient.organization.cancelInvitation({ invitationId: invitation.id })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.invitations_canceled({ email: invitation.email }))
    await refresh.activeOrganization()
  }

  if (invitations.length === 0) {
    return (
      <EmptyState icon={MailIcon} title={m.invitations_empty_title()}>
        {m.invitations_empty()}
      </EmptyState>
    )
  }
  return (
    <ListTable
      list={{ rows: invitations, loading: false }}
      columns={invitationColumns}
      actions={{ canCancel, resend, cancel }}
      testId="invitations-list"
      rowTestId="invitation-row"
    />
  )
}
