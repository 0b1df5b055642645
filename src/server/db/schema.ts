import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

/** One row (id = 1) of settings an operator edits at run time; defaults live in the migration. */
export const siteSettings = pgTable(
  'site_settings',
  {
    id: integer('id').primaryKey().default(1),
    productName: text('product_name').notNull().default('Hatch'),
    sourceRepositoryUrl: text('source_repository_url').notNull().default('https://github.com/hatch-dev/hatch'),
    defaultTheme: text('default_theme', { enum: ['light', 'dark', 'system'] })
      .notNull()
      .default('system'),
    /** Previous/next cards under each docs page; off by default. */
    docsFooterNavigation: boolean('docs_footer_navigation').notNull().default(false),
    /** The branch "Edit on GitHub" links point at. */
    docsEditBranch: text('docs_edit_branch').notNull().default('main'),
    /** Sign-in methods an operator can switch off (more arrive with each method). */
    authEmailPassword: boolean('auth_email_password').notNull().default(true),
    authUsername: boolean('auth_username').notNull().default(true),
    /** Social providers also need their client id and secret in the environment to show. */
    authGithub: boolean('auth_github').notNull().default(true),
    authGoogle: boolean('auth_google').notNull().default(true),
    authGoogleOneTap: boolean('auth_google_one_tap').notNull().default(false),
    authGenericOauth: boolean('auth_generic_oauth').notNull().default(true),
    authMagicLink: boolean('auth_magic_link').notNull().default(true),
    authEmailOtp: boolean('auth_email_otp').notNull().default(true),
    authAnonymous: boolean('auth_anonymous').notNull().default(true),
    authPasskey: boolean('auth_passkey').notNull().default(true),
    /** Closed: the sign-up page says so and the server creates no account (app admins still can, from Users). */
    signUpOpen: boolean('sign_up_open').notNull().default(true),
    /** On: an email-and-password (or username) sign-in needs a verified address first. */
    emailVerificationRequired: boolean('email_verification_required').notNull().default(false),
    /** The IANA time zone the Dashboard's days are cut in (and the analytics' visitor ids rotate with). */
    analyticsTimeZone: text('analytics_time_zone').notNull().default('UTC'),
    /**
     * When the installation's first account was made an app admin. Set once, atomically (never again, even when
     * every admin is later gone: `npm run admin -- grant` names the next one).
     */
    firstAppAdminAt: timestamp('first_app_admin_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('site_settings_single_row', sql`${table.id} = 1`),
    check('site_settings_default_theme', sql`${table.defaultTheme} in ('light', 'dark', 'system')`),
  ],
)

/**
 * The installed apps' settings (src/lib/app-settings.ts): one row per app and key, written when an admin changes one.
 * A removed app's rows stay, unread, and apply again if it comes back.
 */
export const appSettingsTable = pgTable(
  'app_settings',
  {
    app: text('app').notNull(),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.app, table.key] })],
)

/** Fixed-window request counters shared by every app server (the database is the one thing they share). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
})

/**
 * Failed sign-ins per account (src/server/auth/sign-in-throttle.ts), whatever address they come from. The key is
 * `user:{id}` for a known account, else the normalised email or username asked for, so unknown ones count the same.
 */
export const signInThrottles = pgTable('sign_in_throttles', {
  key: text('key').primaryKey(),
  /** Failed (or still running) attempts since `windowStartedAt`. */
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  /** Attempts are refused until then. */
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** Locks in a row (each one twice as long, up to the cap); forgotten a day after the last one ended. */
  locks: integer('locks').notNull().default(0),
})

// ── Better Auth (src/server/auth) ───────────────────────────────────────────────────────────────────────────────
// Field names follow Better Auth's models (user, session, account, verification, rateLimit; username plugin).

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  username: text('username').unique(),
  displayUsername: text('display_username'),
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  /** A guest from "Continue as guest"; signing up later moves the guest's data to the new user. */
  isAnonymous: boolean('is_anonymous').notNull().default(false),
  /** App-wide role (admin plugin): `admin` or `user`, apart from any organization role. */
  role: text('role').notNull().default('user'),
  banned: boolean('banned').default(false),
  banReason: text('ban_reason'),
  banExpires: timestamp('ban_expires', { withTimezone: true }),
  /**
   * When the person last signed in or used the product (a session created or refreshed, about daily while in use);
   * the Dashboard's active users. Sessions themselves go at sign-out and expiry, so they cannot say this.
   */
  lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /** The organization (and team) the console works in; see src/features/organizations/server/organization-plugin.ts. */
    activeOrganizationId: text('active_organization_id'),
    activeTeamId: text('active_team_id'),
    /** Set while an app admin acts as this user (admin plugin). */
    impersonatedBy: text('impersonated_by'),
    /** How the session was signed in (`emailPassword`, `passkey`, `github`, …): Configuration warns before switching it off. */
    signInMethod: text('sign_in_method'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
)

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    /** A password hash (scrypt), for the email-and-password "credential" account only. */
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('accounts_user_id_idx').on(table.userId)],
)

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('verifications_identifier_idx').on(table.identifier)],
)

/** Better Auth's own rate-limit counters, in the database so that every app server enforces one limit. */
export const authRateLimits = pgTable('auth_rate_limits', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
})

/** A user's TOTP secret and backup codes (both encrypted by Better Auth with the auth secret). */
export const twoFactors = pgTable(
  'two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (table) => [index('two_factors_user_id_idx').on(table.userId), index('two_factors_secret_idx').on(table.secret)],
)

/** WebAuthn credentials registered by a user. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialID: text('credential_id').notNull(),
    counter: integer('counter').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    transports: text('transports'),
    aaguid: text('aaguid'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow(),
  },
  (table) => [
    index('passkeys_user_id_idx').on(table.userId),
    index('passkeys_credential_id_idx').on(table.credentialID),
  ],
)

/** API keys (hashed); `referenceId` is the owning user. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    configId: text('config_id').notNull().default('default'),
    name: text('name'),
    start: text('start'),
    prefix: text('prefix'),
    key: text('key').notNull(),
    referenceId: text('reference_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refillInterval: integer('refill_interval'),
    refillAmount: integer('refill_amount'),
    lastRefillAt: timestamp('last_refill_at', { withTimezone: true }),
    enabled: boolean('enabled').default(true),
    rateLimitEnabled: boolean('rate_limit_enabled').default(true),
    rateLimitTimeWindow: integer('rate_limit_time_window').default(86_400_000),
    rateLimitMax: integer('rate_limit_max').default(10),
    requestCount: integer('request_count').default(0),
    remaining: integer('remaining'),
    lastRequest: timestamp('last_request', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    permissions: text('permissions'),
    metadata: text('metadata'),
  },
  (table) => [
    index('api_keys_key_idx').on(table.key),
    index('api_keys_reference_id_idx').on(table.referenceId),
    index('api_keys_config_id_idx').on(table.configId),
  ],
)

/** Every change made to the site settings in the console: who, when, and the value before and after (as JSON). */
export const siteSettingChanges = pgTable(
  'site_setting_changes',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as it was then, so the record still reads right after the account is renamed or deleted. */
    userName: text('user_name').notNull(),
    setting: text('setting').notNull(),
    oldValue: text('old_value').notNull(),
    newValue: text('new_value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('site_setting_changes_created_idx').on(table.createdAt)],
)

/**
 * What app admins did to accounts (Users): bans, roles, passwords, deletions, impersonation. Names are kept as they
 * were then, so an entry still reads right after either account is renamed or deleted.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    targetUserId: text('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    targetName: text('target_name').notNull(),
    targetEmail: text('target_email').notNull(),
    details: jsonb('details').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('audit_log_created_idx').on(table.createdAt),
    index('audit_log_target_idx').on(table.targetUserId, table.createdAt),
  ],
)

/**
 * Every email the app sends, written in the request that sends it; a job delivers it (src/server/email/mailer.ts).
 * `held`: no SMTP server is configured (`npm start` needs none), the message is kept here; `queued`: waiting for its
 * delivery job; `sent`; `dead`: every attempt failed, kept for an app admin to retry.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status', { enum: ['held', 'queued', 'sent', 'dead'] })
      .notNull()
      .default('held'),
    attempts: integer('attempts').notNull().default(0),
    /** A delivery job holds the message until then, so two jobs never send it twice. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('email_outbox_status_idx').on(table.status, table.createdAt)],
)

/**
 * The app processes running against this database: each writes its row at start and every 15 s, and deletes it when
 * it stops (src/server/app-servers.ts). Console → System lists those seen in the last minute.
 */
export const appServers = pgTable(
  'app_servers',
  {
    /** `hostname:pid`. */
    id: text('id').primaryKey(),
    hostname: text('hostname').notNull(),
    pid: integer('pid').notNull(),
    version: text('version').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('app_servers_seen_idx').on(table.seenAt)],
)

/**
 * Each backup taken (src/server/backups): by the schedule or `npm run db:backup`, where it went and how it ended. The
 * newest that succeeded is what Console → System, `/api/metrics` and the launch checklist report.
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: serial('id').primaryKey(),
    trigger: text('trigger').notNull(),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The backup's folder, or `s3://bucket/prefix/name`. */
    location: text('location'),
    bytes: bigint('bytes', { mode: 'number' }),
    error: text('error'),
  },
  (table) => [
    check('backup_runs_trigger', sql`${table.trigger} in ('scheduled', 'command')`),
    check('backup_runs_status', sql`${table.status} in ('running', 'succeeded', 'failed')`),
    index('backup_runs_started_idx').on(table.startedAt),
  ],
)

export * from './ai-schema'
export * from './app-schemas.gen'
export * from './organization-schema'
