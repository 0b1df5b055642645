import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { and, count, eq } from 'drizzle-orm'
import { joinThroughSso } from '#/features/organizations/server'
import { z } from '#/lib/zod'
import type { Database } from '#/server/db/client'
import { members, ssoProviders, users } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { log } from '#/server/log'
import { memberLimit, PlanLimitError } from '#/server/plan-limits'
import { getSiteSettings } from '#/server/settings'
import { emailDomainOf } from '../sso-rules'

/** The plugin's endpoints that finish a single sign-on (and create the user, the account and the session). */
const ssoCallbackPaths = new Set(['/sso/callback/:providerId', '/sso/saml2/sp/acs/:providerId'])

/** Where a Better Auth database hook is running, as far as these guards need to know. */
interface HookContext {
  path?: string
  params?: unknown
}

function ssoCallbackProviderId(ctx: HookContext | null | undefined): string | null {
  if (!ctx?.path || !ssoCallbackPaths.has(ctx.path)) return null
  const providerId = (ctx.params as { providerId?: unknown } | undefined)?.providerId
  return typeof providerId === 'string' ? providerId : ''
}

/** True while the plugin's own endpoints run (any of them, not only the callbacks). */
export function isSsoPath(path: string | undefined): boolean {
  return path?.startsWith('/sso/') === true
}

const outsideDomain = () =>
  new APIError('FORBIDDEN', {
    code: 'SSO_EMAIL_OUTSIDE_DOMAIN',
    message: 'This address is not in the domain this single sign-on is for',
  })

async function verifiedProvider(db: Database, providerId: string) {
  const [provider] = await db
    .select({
      organizationId: ssoProviders.organizationId,
      domain: ssoProviders.domain,
      domainVerified: ssoProviders.domainVerified,
    })
    .from(ssoProviders)
    .where(eq(ssoProviders.providerId, providerId))
  return provider?.domainVerified ? provider : undefined
}

/**
 * The plugin creates a user for any address the identity provider asserts. Only addresses in the connection's
 * verified domain may become accounts through it, so an identity provider cannot mint accounts for other companies'
 * people (or take over theirs). Returns true when the user is made by single sign-on: sign-up closed in
 * Configuration does not stop a company's own people.
 */
export async function checkSsoNewUser(db: Database, email: string, ctx: HookContext | null | undefined) {
  const providerId = ssoCallbackProviderId(ctx)
  if (providerId === null) {
    if (isSsoPath(ctx?.path)) throw outsideDomain()
    return false
  }
  // An identity provider's attribute is whatever its administrator typed: "a@b@acme.example" ends in the domain.
  if (!isEmailAddress(email)) {
    log().warn({ providerId }, 'sso: refused an account for an address that is not one')
    throw new APIError('BAD_REQUEST', {
      code: 'SSO_EMAIL_INVALID',
      message: 'The identity provider sent an address that is not a valid email address',
    })
  }
  const provider = await verifiedProvider(db, providerId)
  if (!provider || emailDomainOf(email) !== provider.domain) {
    log().warn({ providerId, domain: emailDomainOf(email) }, 'sso: refused an account outside the verified domain')
    throw outsideDomain()
  }
  // Refused before the account exists: refused later, at the membership, it would leave a user nobody can use.
  await refuseUnlessRoomForMember(db, provider.organizationId)
  return true
}

const emailAddress = z.email()

function isEmailAddress(email: string): boolean {
  return emailAddress.safeParse(email).success
}

/** A plan's limit as the refusal Better Auth sends back to the sign-in page. */
function planLimitRefusal(error: PlanLimitError): APIError {
  return new APIError('FORBIDDEN', { code: error.code, message: error.message, limit: error.limit })
}

async function refuseUnlessRoomForMember(db: Database, organizationId: string): Promise<void> {
  const { limit, planId } = await memberLimit(db, organizationId)
  const [taken] = await db.select({ value: count() }).from(members).where(eq(members.organizationId, organizationId))
  if ((taken?.value ?? 0) < limit) return
  log().warn({ organizationId }, 'sso: the organization is full; no account made')
  throw planLimitRefusal(new PlanLimitError('PLAN_LIMIT_MEMBERS', limit, planId))
}

/** Linking an SSO identity to an existing account: the same rule, for the account's own address. */
export async function checkSsoAccountLink(db: Database, userId: string, ctx: HookContext | null | undefined) {
  const providerId = ssoCallbackProviderId(ctx)
  if (providerId === null) return
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
  const provider = await verifiedProvider(db, providerId)
  if (!user || !provider || emailDomainOf(user.email) !== provider.domain) {
    log().warn({ providerId }, 'sso: refused linking an account outside the verified domain')
    throw outsideDomain()
  }
}

const ssoRequired = () =>
  new APIError('FORBIDDEN', {
    code: 'SSO_REQUIRED',
    message: 'Your organization signs you in through its identity provider: use "Sign in with SSO"',
  })

/** The organization whose verified domain requires SSO for this address, if any. */
async function organizationRequiringSso(db: Database, email: string): Promise<string | undefined> {
  const domain = emailDomainOf(email)
  if (!domain) return undefined
  const [provider] = await db
    .select({ organizationId: ssoProviders.organizationId })
    .from(ssoProviders)
    .where(
      and(eq(ssoProviders.domain, domain), eq(ssoProviders.domainVerified, true), eq(ssoProviders.requireSso, true)),
    )
  return provider?.organizationId
}

/** Owners are exempt from "must use SSO": a broken identity provider must never lock everyone out. */
async function isOwnerOf(db: Database, organizationId: string, userId: string): Promise<boolean> {
  const [membership] = await db
    .select({ role: members.role })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)))
  return membership?.role.split(',').includes('owner') ?? false
}

/** Whether this person must sign in through single sign-on now (their domain requires it and they own none of it). */
export async function mustUseSso(db: Database, user: { id?: string; email: string }): Promise<boolean> {
  // With single sign-on switched off in Configuration, nobody could sign in at all: the requirement rests.
  if (!(await getSiteSettings(db)).apps.sso.enabled) return false
  const organizationId = await organizationRequiringSso(db, user.email)
  if (!organizationId) return false
  return !(user.id && (await isOwnerOf(db, organizationId, user.id)))
}

async function refuseUnlessSsoAllowed(db: Database, user: { id?: string; email: string }) {
  if (await mustUseSso(db, user)) throw ssoRequired()
}

/** Sign-ins that are not single sign-on and make a session: the backstop refuses them for a domain that requires it. */
const otherSignInPaths = new Set([
  '/sign-in/email',
  '/sign-up/email',
  '/verify-email',
  '/sign-in/username',
  '/magic-link/verify',
  '/sign-in/email-otp',
  '/passkey/verify-authentication',
  '/one-tap/callback',
  '/callback/:id',
  '/oauth2/callback/:providerId',
  '/two-factor/verify-totp',
  '/two-factor/verify-otp',
  '/two-factor/verify-backup-code',
  // Google's (and OpenID providers') ID-token sign-in makes the session on this path itself.
  '/sign-in/social',
  '/email-otp/verify-email',
])

/**
 * Runs before every new session. A single sign-on makes the person a member of the connection's organization (once,
 * within the plan's limit) and opens the session there: the organization id is returned. Any other sign-in of an
 * address whose domain requires SSO is refused here, whatever the method (passkeys and social providers included).
 */
export async function ssoSessionGate(
  db: Database,
  ctx: HookContext | null | undefined,
  user: { id: string; name: string; email: string },
): Promise<string | undefined> {
  const providerId = ssoCallbackProviderId(ctx)
  if (providerId === null) {
    if (ctx?.path && otherSignInPaths.has(ctx.path)) await refuseUnlessSsoAllowed(db, user)
    return undefined
  }
  const provider = await verifiedProvider(db, providerId)
  if (!provider || emailDomainOf(user.email) !== provider.domain) throw outsideDomain()
  try {
    await joinThroughSso(db, provider.organizationId, user)
  } catch (error) {
    if (!(error instanceof PlanLimitError)) throw error
    log().warn({ providerId }, 'sso: the organization is full; sign-in refused')
    throw planLimitRefusal(error)
  }
  return provider.organizationId
}

/** Sign-in requests that name an address: refused before a password is checked or an email is sent. */
const earlyRefusalPaths = new Set(['/sign-in/email', '/sign-in/magic-link', '/email-otp/send-verification-otp'])

/**
 * "Members of this domain must use SSO", said at once where a request names the address (the session backstop above
 * covers the rest). An owner's password sign-in is let through here and in the backstop.
 */
export function ssoRequirement(db: Database) {
  return {
    id: 'hatch-sso-requirement',
    hooks: {
      before: [
        {
          // The plugin finds a connection by the address's domain without preferring the verified one (another
          // organization may have saved the same domain unverified) and accepts subdomains: Hatch names the verified
          // connection of exactly that domain instead, when there is one.
          matcher: (ctx) => ctx.path === '/sign-in/sso',
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as Record<string, unknown>
            if (typeof body.email !== 'string' || body.providerId || body.organizationSlug || body.domain) return
            const [provider] = await db
              .select({ providerId: ssoProviders.providerId })
              .from(ssoProviders)
              .where(and(eq(ssoProviders.domain, emailDomainOf(body.email)), eq(ssoProviders.domainVerified, true)))
            if (provider) return { context: { body: { ...body, providerId: provider.providerId } } }
          }),
        },
        {
          matcher: (ctx) => earlyRefusalPaths.has(ctx.path ?? '') || ctx.path === '/sign-up/email',
          handler: createAuthMiddleware(async (ctx) => {
            const email = (ctx.body as { email?: unknown } | undefined)?.email
            if (typeof email !== 'string') return
            if (ctx.path === '/sign-up/email') {
              if ((await getSiteSettings(db)).apps.sso.enabled && (await organizationRequiringSso(db, email)))
                throw ssoRequired()
              return
            }
            const [user] = await db
              .select({ id: users.id })
              .from(users)
              .where(eq(users.email, email.trim().toLowerCase()))
            await refuseUnlessSsoAllowed(db, { id: user?.id, email })
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}

/**
 * With SSO_ALLOW_PRIVATE (local development, tests), the plugin must be told that identity providers on private
 * addresses are meant: their origins are trusted. Without it, none are added and the plugin keeps refusing them.
 */
export async function identityProviderOrigins(db: Database): Promise<string[]> {
  if (!getEnv().SSO_ALLOW_PRIVATE) return []
  const rows = await db.select({ oidc: ssoProviders.oidcConfig, issuer: ssoProviders.issuer }).from(ssoProviders)
  const origins = new Set<string>()
  for (const row of rows) {
    let config: Record<string, unknown> = {}
    try {
      config = row.oidc ? (JSON.parse(row.oidc) as Record<string, unknown>) : {}
    } catch {
      // A hand-edited row: its endpoints stay untrusted; every other request goes on.
    }
    for (const value of [row.issuer, config.tokenEndpoint, config.jwksEndpoint, config.userInfoEndpoint]) {
      if (typeof value === 'string' && URL.canParse(value)) origins.add(new URL(value).origin)
    }
  }
  return [...origins]
}
