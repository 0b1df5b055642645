import { APIError, getSessionFromCtx } from 'better-auth/api'
import { and, eq } from 'drizzle-orm'
import { allows } from '#/lib/access-control'
import { loadOrganizationAccess } from '#/server/auth/organization-access'
import type { Database } from '#/server/db/client'
import { invitations } from '#/server/db/schema'
import { consumeRateLimit, type RateLimitRule } from '#/server/rate-limit'

const hourMs = 60 * 60_000

/**
 * Invitation emails one address may be sent in an hour, from every organization together: an invitation and a couple
 * of resends. Without it, `resend: true` mailed one outside address 56 times in ten seconds.
 */
export const invitationEmailsPerRecipient: RateLimitRule = { limit: 3, windowMs: hourMs }

/** Invitation emails one organization may send in an hour: a team's onboarding, not a mailing list. */
export const invitationEmailsPerOrganization: RateLimitRule = { limit: 50, windowMs: hourMs }

type Context = Parameters<typeof getSessionFromCtx>[0] & { path: string }
type Body = Record<string, unknown>

function tooManyInvitationEmails(code: string, message: string, retryAfterSeconds: number) {
  return new APIError(
    'TOO_MANY_REQUESTS',
    { code, message, retryAfterSeconds },
    {
      'Retry-After': String(retryAfterSeconds),
    },
  )
}

/**
 * Counts the invitation email an `invite-member` request would send against the recipient's and the organization's
 * hourly limits, and refuses it (429 with Retry-After) past either. Only a request Better Auth would act on counts: a
 * caller who may not invite there, or a repeat without `resend` (refused without an email), spends nobody's allowance.
 * Better Auth sends the email itself (also on a resend, where no invitation hook runs), so the count happens here.
 */
export async function refuseInvitationEmailFlood(db: Database, ctx: Context): Promise<void> {
  if (ctx.path !== '/organization/invite-member') return
  const body = (ctx.body ?? {}) as Body
  if (typeof body.email !== 'string') return
  const session = await getSessionFromCtx(ctx)
  if (!session) return
  const organizationId =
    typeof body.organizationId === 'string' && body.organizationId !== ''
      ? body.organizationId
      : (session.session as { activeOrganizationId?: string | null }).activeOrganizationId
  if (!organizationId) return
  const caller = await loadOrganizationAccess(db, session.user.id, organizationId)
  const mayInvite = caller?.rolePermissions.some((held) => allows(held, { invitation: ['create'] })) ?? false
  if (!mayInvite) return // Better Auth refuses it
  const email = body.email.toLowerCase()
  if (body.resend !== true) {
    const [pending] = await db
      .select({ id: invitations.id })
      .from(invitations)
      .where(
        and(
          eq(invitations.organizationId, organizationId),
          eq(invitations.email, email),
          eq(invitations.status, 'pending'),
        ),
      )
      .limit(1)
    if (pending) return // Better Auth answers USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION and sends nothing
  }
  const recipient = await consumeRateLimit(db, `invitation-emails:to:${email}`, invitationEmailsPerRecipient)
  if (!recipient.allowed) {
    throw tooManyInvitationEmails(
      'INVITATION_EMAILS_TO_ADDRESS_LIMITED',
      'This address has been sent several invitations within the hour; try again later',
      recipient.retryAfterSeconds,
    )
  }
  const sender = await consumeRateLimit(db, `invitation-emails:from:${organizationId}`, invitationEmailsPerOrganization)
  if (!sender.allowed) {
    throw tooManyInvitationEmails(
      'INVITATION_EMAILS_FROM_ORGANIZATION_LIMITED',
      'This organization has sent many invitations within the hour; try again later',
      sender.retryAfterSeconds,
    )
  }
}
