import { randomBytes } from 'node:crypto'
import { and, eq, isNull, ne, notInArray, or, sql } from 'drizzle-orm'
import { recordActivity } from '#/features/organizations/server'
import type { Permissions } from '#/lib/access-control'
import { authForDatabase } from '#/server/auth/auth'
import type { Database } from '#/server/db/client'
import { members, sessions, ssoProviders, users } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { AppError, createRouter, orgProcedure } from '#/server/trpc/init'
import { oidcConnectionSchema, samlConnectionSchema, ssoRequiredInput } from '../schemas'
import { domainRecordName, domainRecordValue, serviceProviderUrls, ssoProviderIdOf } from '../sso-rules'
import { discoverOidcProvider, readSamlMetadata, type StoredOidcConfig } from './connection-setup'
import { checkDomainRecord } from './domain-check'
import { ssoConnectionsChanged } from './sso-required-domains'

/**
 * Setting up single sign-on decides who can sign in as anyone of the domain: owner-level, like deleting the
 * organization (admins have every other organization permission).
 */
const manageSso: Permissions = { organization: ['update', 'delete'] }

const newToken = () => randomBytes(18).toString('base64url')

const emailNameIdFormat = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'

async function connectionOf(db: Database, organizationId: string) {
  const [row] = await db.select().from(ssoProviders).where(eq(ssoProviders.organizationId, organizationId))
  return row
}

const noConnection = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'SSO_NOT_CONFIGURED', message: 'Single sign-on is not set up' })

/** A domain another organization has proven is theirs. */
async function assertDomainFree(db: Database, organizationId: string, domain: string) {
  const [taken] = await db
    .select({ id: ssoProviders.id })
    .from(ssoProviders)
    .where(
      and(
        eq(ssoProviders.domain, domain),
        eq(ssoProviders.domainVerified, true),
        ne(ssoProviders.organizationId, organizationId),
      ),
    )
  if (taken) throw domainTaken()
}

const domainTaken = () =>
  new AppError({
    code: 'CONFLICT',
    appCode: 'SSO_DOMAIN_TAKEN',
    message: 'Another organization has verified this domain',
    field: 'domain',
  })

/** PostgreSQL's unique_violation, as both engines report it (possibly wrapped by Drizzle). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown; cause?: { code?: unknown } })?.code
  const causeCode = (error as { cause?: { code?: unknown } })?.cause?.code
  return code === '23505' || causeCode === '23505'
}

/**
 * Saves the organization's one connection. Changing the domain starts its verification again (and lifts "must use
 * SSO", which only a verified domain can have); the same domain keeps both.
 */
async function saveConnection(
  db: Database,
  organization: { id: string },
  user: { id: string; name: string },
  values: { domain: string; issuer: string; oidcConfig: string | null; samlConfig: string | null; protocol: string },
) {
  await assertDomainFree(db, organization.id, values.domain)
  const existing = await connectionOf(db, organization.id)
  const sameDomain = existing?.domain === values.domain
  const row = {
    issuer: values.issuer,
    oidcConfig: values.oidcConfig,
    samlConfig: values.samlConfig,
    userId: user.id,
    domain: values.domain,
    updatedAt: new Date(),
    ...(sameDomain
      ? {}
      : { domainVerified: false, domainVerifiedAt: null, requireSso: false, verificationToken: newToken() }),
  }
  if (existing) {
    await db.update(ssoProviders).set(row).where(eq(ssoProviders.id, existing.id))
  } else {
    await db
      .insert(ssoProviders)
      .values({
        id: newToken(),
        providerId: ssoProviderIdOf(organization.id),
        organizationId: organization.id,
        verificationToken: newToken(),
        ...row,
      })
      // Two first saves at once: the other one made the row; this one changes it.
      .onConflictDoUpdate({ target: ssoProviders.organizationId, set: row })
  }
  await recordActivity(db, {
    organizationId: organization.id,
    actor: user,
    action: 'sso_saved',
    details: { protocol: values.protocol, domain: values.domain },
  })
}

/**
 * Once SSO is required, sessions of the domain's people made another way end (owners' excepted), from the database
 * and from Redis alike: they sign in again, through their identity provider.
 */
async function endOtherSignIns(db: Database, organizationId: string, domain: string) {
  const owners = db
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), sql`'owner' = any(string_to_array(${members.role}, ','))`))
  const stale = await db
    .select({ token: sessions.token })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        // A checked domain holds only letters, digits, dots and dashes: nothing LIKE would read as a pattern.
        sql`lower(${users.email}) like ${`%@${domain}`}`,
        or(isNull(sessions.signInMethod), ne(sessions.signInMethod, 'sso')),
        notInArray(sessions.userId, owners),
      ),
    )
  if (stale.length === 0) return
  const { internalAdapter } = await authForDatabase(db).$context
  for (const { token } of stale) await internalAdapter.deleteSession(token)
}

export const ssoRouter = createRouter({
  /** The connection as its page shows it (never the client secret), and what the identity provider is to be told. */
  get: orgProcedure(manageSso).query(async ({ ctx }) => {
    const providerId = ssoProviderIdOf(ctx.organization.id)
    const serviceProvider = serviceProviderUrls(getEnv().APP_URL, providerId)
    const row = await connectionOf(ctx.db, ctx.organization.id)
    if (!row) return { serviceProvider, connection: null }
    const oidc = row.oidcConfig ? (JSON.parse(row.oidcConfig) as StoredOidcConfig) : null
    const saml = row.samlConfig ? (JSON.parse(row.samlConfig) as { entryPoint?: string }) : null
    return {
      serviceProvider,
      connection: {
        protocol: oidc ? ('oidc' as const) : ('saml' as const),
        issuer: row.issuer,
        clientId: oidc?.clientId ?? null,
        ssoUrl: saml?.entryPoint ?? null,
        domain: row.domain,
        domainVerified: row.domainVerified,
        domainVerifiedAt: row.domainVerifiedAt,
        requireSso: row.requireSso,
        record: { name: domainRecordName(row.domain), value: domainRecordValue(row.verificationToken) },
        updatedAt: row.updatedAt,
      },
    }
  }),

  /** An OpenID Connect connection; the issuer's discovery document is read now, so sign-in never waits on it. */
  saveOidc: orgProcedure(manageSso)
    .input(oidcConnectionSchema)
    .mutation(async ({ ctx, input }) => {
      const existing = await connectionOf(ctx.db, ctx.organization.id)
      const previous = existing?.oidcConfig ? (JSON.parse(existing.oidcConfig) as StoredOidcConfig) : null
      // An empty secret keeps the stored one (the page never shows it), for the same client of the same issuer only:
      // never sent to an issuer it was not made for.
      const sameClient =
        previous?.clientId === input.clientId &&
        previous.issuer.replace(/\/+$/, '') === input.issuer.trim().replace(/\/+$/, '')
      const clientSecret = input.clientSecret || (sameClient ? previous.clientSecret : '')
      if (!clientSecret) {
        throw new AppError({
          code: 'BAD_REQUEST',
          appCode: 'BAD_REQUEST',
          message: 'validation_required',
          field: 'clientSecret',
        })
      }
      const config = await discoverOidcProvider({ issuer: input.issuer, clientId: input.clientId, clientSecret })
      await saveConnection(ctx.db, ctx.organization, ctx.user, {
        protocol: 'OpenID Connect',
        domain: input.domain,
        issuer: config.issuer,
        oidcConfig: JSON.stringify(config),
        samlConfig: null,
      })
      return { saved: true }
    }),

  /** A SAML 2.0 connection from the identity provider's metadata (pasted, or read once from its URL). */
  saveSaml: orgProcedure(manageSso)
    .input(samlConnectionSchema)
    .mutation(async ({ ctx, input }) => {
      const idp = await readSamlMetadata(input)
      const { entityId, acsUrl } = serviceProviderUrls(getEnv().APP_URL, ssoProviderIdOf(ctx.organization.id))
      const samlConfig = {
        issuer: entityId,
        audience: entityId,
        entryPoint: idp.ssoUrl,
        callbackUrl: `${getEnv().APP_URL}/console`,
        idpMetadata: { metadata: idp.metadataXml },
        spMetadata: { entityID: entityId },
        wantAssertionsSigned: true,
        authnRequestsSigned: false,
        identifierFormat: emailNameIdFormat,
        mapping: { email: 'email', firstName: 'givenName', lastName: 'surname', name: 'displayName' },
      }
      await saveConnection(ctx.db, ctx.organization, ctx.user, {
        protocol: 'SAML 2.0',
        domain: input.domain,
        issuer: idp.entityId,
        oidcConfig: null,
        samlConfig: JSON.stringify(samlConfig),
      })
      return { saved: true, acsUrl }
    }),

  /** Looks for the TXT record now; verified, the connection can sign people in. */
  verifyDomain: orgProcedure(manageSso).mutation(async ({ ctx }) => {
    const row = await connectionOf(ctx.db, ctx.organization.id)
    if (!row) throw noConnection()
    if (row.domainVerified) return { result: 'verified' as const }
    const result = await checkDomainRecord(row.domain, row.verificationToken)
    if (result !== 'verified') return { result }
    await assertDomainFree(ctx.db, ctx.organization.id, row.domain)
    // Only the domain and token that were just checked: a save of another domain meanwhile stays unverified.
    let verified: { id: string }[]
    try {
      verified = await ctx.db
        .update(ssoProviders)
        .set({ domainVerified: true, domainVerifiedAt: new Date(), updatedAt: new Date() })
        .where(
          and(
            eq(ssoProviders.id, row.id),
            eq(ssoProviders.domain, row.domain),
            eq(ssoProviders.verificationToken, row.verificationToken),
            eq(ssoProviders.domainVerified, false),
          ),
        )
        .returning({ id: ssoProviders.id })
    } catch (error) {
      // Another organization verified the same domain at the same moment (the unique index decided).
      if (isUniqueViolation(error)) throw domainTaken()
      throw error
    }
    if (verified.length === 0) return { result: 'record-missing' as const }
    await recordActivity(ctx.db, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: 'sso_domain_verified',
      details: { domain: row.domain },
    })
    return { result }
  }),

  /** Whether people of the verified domain must sign in through SSO (owners never are). */
  setRequired: orgProcedure(manageSso)
    .input(ssoRequiredInput)
    .mutation(async ({ ctx, input }) => {
      const row = await connectionOf(ctx.db, ctx.organization.id)
      if (!row) throw noConnection()
      if (!row.domainVerified) {
        throw new AppError({
          code: 'BAD_REQUEST',
          appCode: 'SSO_DOMAIN_NOT_VERIFIED',
          message: 'Verify the domain first',
        })
      }
      if (row.requireSso === input.required) return { requireSso: row.requireSso }
      await ctx.db
        .update(ssoProviders)
        .set({ requireSso: input.required, updatedAt: new Date() })
        .where(eq(ssoProviders.id, row.id))
      await ssoConnectionsChanged(ctx.db)
      if (input.required) await endOtherSignIns(ctx.db, ctx.organization.id, row.domain)
      await recordActivity(ctx.db, {
        organizationId: ctx.organization.id,
        actor: ctx.user,
        action: input.required ? 'sso_required' : 'sso_not_required',
        details: { domain: row.domain },
      })
      return { requireSso: input.required }
    }),

  /** Stops single sign-on; accounts and memberships stay. */
  remove: orgProcedure(manageSso).mutation(async ({ ctx }) => {
    const row = await connectionOf(ctx.db, ctx.organization.id)
    if (!row) throw noConnection()
    await ctx.db.delete(ssoProviders).where(eq(ssoProviders.id, row.id))
    await ssoConnectionsChanged(ctx.db)
    await recordActivity(ctx.db, {
      organizationId: ctx.organization.id,
      actor: ctx.user,
      action: 'sso_removed',
      details: { domain: row.domain },
    })
    return { removed: true }
  }),
})
