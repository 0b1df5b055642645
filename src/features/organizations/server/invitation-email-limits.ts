import { defineRequestState } from '@better-auth/core/context'
import { APIError, getSessionFromCtx } from 'better-auth/api'
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import { allows } from '#/lib/access-control'
import { loadOrganizationAccess } from '#/server/auth/organization-access'
import type { Database } from '#/server/db/client'
import { invitations, rateLimits } from '#/server/db/schema'
import { consumeRateLimit, type RateLimitRule } from '#/server/rate-limit'

const hourMs = 60 * 60_000

/**
 * Invitation emails one organization may send one address in an hour: an invitation and a couple of resends. Without
 * it, `resend: true` mailed one outside address 56 times in ten seconds. Counted per organization, so that nobody can
 * spend another organization's allowance for an address (anyone may create an organization and invite anyone).
 */
export const invitationEmailsPerRecipient: RateLimitRule = { limit: 3, windowMs: hourMs }

/** Invitation emails one address may be sent in an hour from all organizations together: several organizations' worth. */
export const invitationEmailsPerAddress: RateLimitRule = { limit: 10, windowMs: hourMs }

/** Invitation emails one organization may send in an hour: a team's onboarding, not a mailing list. */
export const invitationEmailsPerOrganization: RateLimitRule = { limit: 50, windowMs: hourMs }

type Context = Parameters<typeof getSessionFromCtx>[0] & { path: string }
type Body = Record<string, unknown>

/** The counters a request's before-hook spent, for its after-hook to give back if Better Auth refuses the request. */
export const invitationEmailsCounted = defineRequestState<string[] | undefined>(() => undefined)

function tooManyInvitationEmails(code: string, message: string, retryAfterSeconds: number) {
  return new APIError(
    'TOO_MANY_REQUESTS',
    { code, message, retryAfterSeconds },
    {
      'Retry-After': String(retryAfterSeconds),
    },
  )
}

const addressRefusal = [
  'INVITATION_EMAILS_TO_ADDRESS_LIMITED',
  'This address has been sent several invitations within the hour; try again later',
] as const

/** Takes back one count from each counter: the request they were spent on sent no email. */
export async function giveBackInvitationEmails(db: Database, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(inArray(rateLimits.key, [...keys]))
}

/**
 * Counts the invitation email an `invite-member` request would send against the hourly limits (this organization to
 * this address, every organization to this address, this organization to anyone) and refuses it (429 with
 * Retry-After) past any of them; returns the counters spent. The count is taken here, before Better Auth acts: by the
 * time it sends the email the invitation is stored (or a resend's expiry moved), and a refusal there would leave an
 * invitation nobody was told about. So a request Better Auth refuses after this (already a member, an unknown role,
 * the plan full) gets its counts back in the after-hook ({@link giveBackInvitationEmails}); requests that are plainly
 * refused are not counted at all, so that a flood of them cannot crowd out real invitations even for a moment.
 */
export async function countInvitationEmail(db: Database, ctx: Context): Promise<string[] | undefined> {
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
    // Better Auth treats an expired invitation as gone: a new one is made and mailed, so that one counts.
    const [pending] = await db
      .select({ id: invitations.id })
      .from(invitations)
      .where(
        and(
          eq(invitations.organizationId, organizationId),
          eq(invitations.email, email),
          eq(invitations.status, 'pending'),
          gt(invitations.expiresAt, new Date()),
        ),
      )
      .limit(1)
    if (pending) return // Better Auth answers USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION and sends nothing
  }
  const limits = [
    {
      key: `invitation-emails:${organizationId}:to:${email}`,
      rule: invitationEmailsPerRecipient,
      refusal: addressRefusal,
    },
    { key: `invitation-emails:to:${email}`, rule: invitationEmailsPerAddress, refusal: addressRefusal },
    {
      key: `invitation-emails:from:${organizationId}`,
      rule: invitationEmailsPerOrganization,
      refusal: [
        'INVITATION_EMAILS_FROM_ORGANIZATION_LIMITED',
        'This organization has sent many invitations within the hour; try again later',
      ] as const,
    },
  ]
  const spent: string[] = []
  for (const { key, rule, refusal } of limits) {
    const result = await consumeRateLimit(db, key, rule)
    spent.push(key)
    if (!result.allowed) {
      // A refused request sends nothing: none of its counts stand (the organization's own limit would otherwise eat
      // the address's allowance, and the other way round).
      await giveBackInvitationEmails(db, spent)
      throw tooManyInvitationEmails(refusal[0], refusal[1], result.retryAfterSeconds)
    }
  }
  return spent
}
