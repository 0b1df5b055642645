import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
// Only read inside the lazy `references` callbacks, so the import cycle with schema.ts is harmless.
import { organizations } from '../../../server/db/organization-schema'
import { users } from '../../../server/db/schema'

/**
 * An organization's single sign-on connection (Better Auth's SSO plugin model `ssoProvider`, mapped in
 * src/server/auth/auth.ts), plus Hatch's own columns: the domain-check token and whether the domain must use SSO.
 * One per organization; a verified domain belongs to one organization.
 */
export const ssoProviders = pgTable(
  'sso_providers',
  {
    id: text('id').primaryKey(),
    /** `org-{organizationId}`: the path segment of the ACS and callback URLs the identity provider is given. */
    providerId: text('provider_id').notNull().unique(),
    /** The identity provider's entity ID (SAML) or issuer URL (OpenID Connect). */
    issuer: text('issuer').notNull(),
    /** JSON as the plugin reads it; holds the client secret, so never sent to a browser. */
    oidcConfig: text('oidc_config'),
    samlConfig: text('saml_config'),
    /** Who last saved the connection. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Lower-case email domain, e.g. `example.com`. */
    domain: text('domain').notNull(),
    domainVerified: boolean('domain_verified').notNull().default(false),
    /** Published as TXT `_hatch-sso.{domain}` = `hatch-sso-verification={token}`. */
    verificationToken: text('verification_token')
      .notNull()
      .$defaultFn(() => randomBytes(18).toString('base64url')),
    domainVerifiedAt: timestamp('domain_verified_at', { withTimezone: true }),
    /** People of the verified domain sign in through SSO only (organization owners exempt). */
    requireSso: boolean('require_sso').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('sso_providers_organization_idx').on(table.organizationId),
    uniqueIndex('sso_providers_verified_domain_idx').on(table.domain).where(sql`${table.domainVerified}`),
    index('sso_providers_domain_idx').on(table.domain),
  ],
)
