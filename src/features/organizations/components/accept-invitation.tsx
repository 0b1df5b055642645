import { type ReactNode, useState } from 'react'
import { toast } from 'sonner'
import { OrganizationAvatar } from '#/components/organization-avatar'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { rolesLabel } from '#/lib/role-labels'
import type { SessionUser } from '#/lib/session-user'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

export interface InvitationPreview {
  id: string
  email: string
  role: string
  status: 'pending' | 'accepted' | 'rejected' | 'canceled' | 'expired'
  organizationName: string
  organizationLogo: string | null
  inviterName: string
}

const closedMessages = {
  accepted: m.invite_page_accepted,
  rejected: m.invite_page_rejected,
  canceled: m.invite_page_canceled,
  expired: m.invite_page_expired,
}

function Notice({ children }: { children: string }) {
  return (
    <p role="status" data-testid="invitation-status" className="rounded-md border p-3 text-sm">
      {children}
    </p>
  )
}

/**
 * The page an invitation email links to: who invites you where, and Accept or Decline. A visitor who is signed out
 * signs in or up first and comes back here; an invitation for another address, or one that can no longer be accepted,
 * says so plainly.
 */
export function AcceptInvitation({
  invitation,
  user,
  signInHref,
  signUpHref,
}: {
  invitation: InvitationPreview | null
  user: SessionUser | null
  signInHref: string
  signUpHref: string
}) {
  const [answered, setAnswered] = useState<'declined' | null>(null)
  const [pending, setPending] = useState(false)
  if (!invitation) return <Notice>{m.invite_page_not_found()}</Notice>

  const summary = (
    <div className="flex items-center gap-3" data-testid="invitation-summary">
      <OrganizationAvatar organization={{ name: invitation.organizationName, logo: invitation.organizationLogo }} />
      <p>
        {m.invite_page_summary({
          inviter: invitation.inviterName,
          organization: invitation.organizationName,
          role: rolesLabel(invitation.role),
        })}
      </p>
    </div>
  )

  if (invitation.status !== 'pending') {
    return (
      <div className="grid gap-4">
        {summary}
        <Notice>{closedMessages[invitation.status]()}</Notice>
      </div>
    )
  }
  if (answered === 'declined') return <Notice>{m.invite_page_declined()}</Notice>

  if (!user) {
    return (
      <div className="grid gap-4">
        {summary}
        <p className="text-sm text-muted-foreground">{m.invite_page_sign_in_first({ email: invitation.email })}</p>
        <div className="flex flex-wrap gap-2">
          <Button asChild>
            <a href={signInHref}>{m.invite_page_sign_in()}</a>
          </Button>
          <Button asChild variant="outline">
            <a href={signUpHref}>{m.invite_page_sign_up()}</a>
          </Button>
        </div>
      </div>
    )
  }

  if (user.email.toLowerCase() !== invitation.email.toLowerCase()) {
    return (
      <div className="grid gap-4">
        {summary}
        <Notice>{m.invite_page_wrong_account({ email: invitation.email, current: user.email })}</Notice>
        <Button asChild variant="outline">
          <a href={signInHref}>{m.invite_page_switch_account()}</a>
        </Button>
      </div>
    )
  }

  // Only the address's owner may answer (an account made with someone else's address has not confirmed it).
  if (!user.emailVerified) return <ConfirmAddressFirst summary={summary} email={invitation.email} />

  const accept = async () => {
    setPending(true)
    const { data, error } = await authClient.organization.acceptInvitation({ invitationId: invitation.id })
    if (error) {
      setPending(false)
      toast.error(describeAuthError(error))
      return
    }
    // Work in the organization just joined; a full load, so the console starts from the new membership.
    await authClient.organization.setActive({ organizationId: data.invitation.organizationId })
    window.location.assign(localizeHref('/console'))
  }
  const decline = async () => {
    setPending(true)
    const { error } = await authClient.organization.rejectInvitation({ invitationId: invitation.id })
    setPending(false)
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    setAnswered('declined')
  }

  return (
    <div className="grid gap-4">
      {summary}
      <div className="flex flex-wrap gap-2">
        <Button onClick={accept} disabled={pending}>
          {m.invite_page_accept()}
        </Button>
        <Button variant="outline" onClick={decline} disabled={pending}>
          {m.invite_page_decline()}
        </Button>
      </div>
    </div>
  )
}

/** An invitation answered only once the address is confirmed: the link brings the person back to this page. */
function ConfirmAddressFirst({ summary, email }: { summary: ReactNode; email: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle')
  const send = async () => {
    setState('sending')
    const { error } = await authClient.sendVerificationEmail({ email, callbackURL: window.location.pathname })
    if (error) {
      setState('idle')
      toast.error(describeAuthError(error))
      return
    }
    setState('sent')
  }
  return (
    <div className="grid gap-4">
      {summary}
      <Notice>{m.invite_page_verify_first({ email })}</Notice>
      {state === 'sent' ? (
        <p role="status" className="text-sm text-muted-foreground">
          {m.invite_page_verification_sent({ email })}
        </p>
      ) : (
        <Button onClick={send} disabled={state === 'sending'} className="justify-self-start">
          {m.invite_page_send_verification()}
        </Button>
      )}
    </div>
  )
}
