import { apiKey } from '@better-auth/api-key'
import { passkey } from '@better-auth/passkey'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError } from 'better-auth/api'
import {
  admin,
  anonymous,
  emailOTP,
  genericOAuth,
  magicLink,
  multiSession,
  oneTap,
  twoFactor,
  username,
} from 'better-auth/plugins'
import { tanstackStartCookies } from 'better-auth/tanstack-start'
import { eq } from 'drizzle-orm'
import type { Redis } from 'ioredis'
import {
  accountDeletionOrganizations,
  chooseActiveOrganization,
  moveMemberships,
  organizationChecks,
  organizationPlugin,
} from '#/features/organizations/server'
import { apiKeyLimits } from '#/lib/api-key-rules'
import { impersonationMinutes } from '#/lib/impersonation'
import { passwordLimits } from '#/lib/password-policy'
import { m } from '#/paraglide/messages'
import { deleteAccountFiles } from '#/server/files/file-jobs'
import { resolveAuthSecret } from '../auth-secret'
import type { Database } from '../db/client'
import { getDb, isAppDatabase } from '../db/database'
import {
  accounts,
  apiKeys,
  authRateLimits,
  invitations,
  members,
  organizationRoles,
  organizations,
  passkeys,
  sessions,
  teamMembers,
  teams,
  twoFactors,
  users,
  verifications,
} from '../db/schema'
import type { OneTimeCodePurpose } from '../email/templates'
import { getEnv } from '../env'
import { noteAuthFailure } from '../failure-answers'
import { authLog } from '../log'
import { localeOfRequest } from '../request-locale'
import { getSiteSettings } from '../settings'
import { accountDeletionGuard } from './account-deletion'
import { apiKeyHeader } from './api-key-header'
import { claimFirstAppAdmin } from './app-admins'
import { appAuthExtensions } from './app-auth.gen'
import {
  magicLinkMinutes,
  oneTimeCodeMinutes,
  sendMagicLink,
  sendOneTimeCode,
  sendPasswordLink,
  sendVerificationLink,
} from './auth-emails'
import { authRateLimitRules } from './auth-rate-limits'
import { authRequestGuard } from './auth-request-guard'
import { emailVerificationGate } from './email-verification-gate'
import { signInMethodOf } from './methods'
import { passkeyNameLimit } from './passkey-names'
import {
  closeRedis,
  connectRedis,
  createRedisRateLimits,
  createRedisStorage,
  type RateLimitStorage,
  type SecondaryStorage,
} from './redis-storage'
import { rememberMeCoversDeviceSessions } from './remember-me'
import { keepNewSessionCookie } from './session-cookie-guard'
import { sessionCopyOnlyForReads } from './session-copy'
import { signInLockEmailsSent, signInThrottle } from './sign-in-throttle'
import { twoFactorChallengeStatus } from './two-factor-challenge'
import { markUserActive } from './user-activity'
import { userAdministration } from './user-administration'

export { apiKeyHeader } from './api-key-header'

/** Better Auth's cookies are named `hatch.*` (`__Secure-hatch.*` over HTTPS). */
export const authCookiePrefix = 'hatch'

/** The server puts the client's address here (scripts/serve.ts decides whether proxies are trusted); clients can't. */
export const clientIpHeader = 'x-hatch-client-ip'

export interface AuthOptions {
  /**
   * Sessions and rate-limit counters in a store every app server shares (Redis when REDIS_URL is set). Without it,
   * sessions and counters live in the database, which every app server shares too.
   */
  secondaryStorage?: SecondaryStorage
  /** Where rate limits are counted when not in `secondaryStorage` alone: Redis, and the database while Redis is away. */
  rateLimitStorage?: RateLimitStorage
  /** Overrides SESSION_CACHE_SECONDS (tests of the cache itself). */
  sessionCacheSeconds?: number
}

/**
 * The installed apps' plugins, typed as none: their endpoints are the apps' own (no core code calls them), and typing
 * them here would make the core's auth type depend on which apps are installed.
 */
function appPlugins(db: Database, which: 'earlyPlugins' | 'plugins'): [] {
  return appAuthExtensions.flatMap((extension) => extension[which]?.(db) ?? []) as unknown as []
}

/** Origins to trust besides the site's own: a function when an app needs some (read per request), else the list. */
function trustedOriginsOf(db: Database, configured: string[]) {
  const readers = appAuthExtensions.flatMap((extension) => extension.trustedOrigins?.(db) ?? [])
  if (readers.length === 0) return configured
  return async () => [...configured, ...(await Promise.all(readers.map((read) => read()))).flat()]
}

export function createAuth(db: Database, options: AuthOptions = {}) {
  const env = getEnv()
  const { secret } = resolveAuthSecret({ configured: env.BETTER_AUTH_SECRET, dataDir: env.DATA_DIR })
  const genericProviderIds = env.OAUTH_PROVIDERS.map(({ id }) => id)
  const sessionCacheSeconds = options.sessionCacheSeconds ?? env.SESSION_CACHE_SECONDS
  return betterAuth({
    appName: 'Hatch',
    baseURL: env.APP_URL,
    basePath: '/api/auth',
    // Failures are logged once and answered without details at the app's exit (src/server/failure-answers.ts).
    // A refused redirect flow (a provider's callback, a SAML response) lands on the sign-in page, which explains it.
    onAPIError: { onError: noteAuthFailure, errorURL: `${env.APP_URL}/sign-in?oauth=failed` },
    secret,
    trustedOrigins: trustedOriginsOf(db, env.trustedOrigins),
    disabledPaths: appAuthExtensions.flatMap((extension) => extension.disabledPaths ?? []),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: authRateLimits,
        twoFactor: twoFactors,
        passkey: passkeys,
        apikey: apiKeys,
        organization: organizations,
        member: members,
        invitation: invitations,
        team: teams,
        teamMember: teamMembers,
        organizationRole: organizationRoles,
        ...Object.assign({}, ...appAuthExtensions.map((extension) => extension.tables ?? {})),
      },
    }),
    socialProviders: {
      ...(env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET
        ? { github: { clientId: env.GITHUB_CLIENT_ID, clientSecret: env.GITHUB_CLIENT_SECRET } }
        : {}),
      ...(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { google: { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } }
        : {}),
    },
    session: {
      // Sessions are kept in the database too with Redis: the session list and revocations survive a Redis restart.
      storeSessionInDatabase: Boolean(options.secondaryStorage),
      // Set by the session hook below; never taken from a client.
      additionalFields: { signInMethod: { type: 'string', required: false, input: false } },
      // Every page and API call checks the session: a short signed copy in a cookie answers it without the database.
      // The price: a session revoked from another device still works there for up to SESSION_CACHE_SECONDS.
      cookieCache: { enabled: sessionCacheSeconds > 0, maxAge: sessionCacheSeconds },
    },
    account: {
      // Linking happens from the Account area while signed in, so the provider's email may differ from the user's.
      accountLinking: { enabled: true, allowDifferentEmails: true },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: passwordLimits.min,
      maxPasswordLength: passwordLimits.max,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // An account without a password (created by an admin, or through a link or a provider) chooses its first one.
      sendResetPassword: ({ user, url }, request) => sendPasswordLink(db, user, url, request),
    },
    // Sign-up sends a verification email; signing in stays allowed, and the console asks to verify.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      // Also used by change-email: then `user.email` is the NEW address and the token says what it is for.
      sendVerificationEmail: ({ user, url, token }, request) => sendVerificationLink(db, user, { url, token }, request),
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user, ctx) => {
            // An app may refuse the address, or vouch for it (an organization's identity provider, for its verified
            // domain: single sign-on).
            let vouched = false
            for (const extension of appAuthExtensions) {
              if (await extension.beforeUserCreated?.(db, user.email, ctx)) vouched = true
            }
            // Closed sign-up creates no account by any method (a guest, a magic link, a provider); app admins still
            // can, from Users, and an app that vouches for the address still can.
            if (!vouched && ctx?.path !== '/admin/create-user' && !(await getSiteSettings(db)).signUpOpen) {
              throw new APIError('FORBIDDEN', { code: 'SIGN_UP_CLOSED', message: 'Sign-up is closed' })
            }
            return {
              data: {
                ...user,
                // Vouched for: the organization proved the domain and its identity provider vouches for the address.
                ...(vouched ? { emailVerified: true } : {}),
                // Magic links and email codes create users from an address alone: name them after it until they choose.
                name: user.name?.trim() ? user.name : (user.email.split('@')[0] ?? user.email),
                // The first account of a fresh install runs it: it becomes an app admin, once in the installation's
                // life (npm run admin changes this).
                role:
                  ctx?.path === '/admin/create-user'
                    ? (user as { role?: string }).role
                    : (user as { isAnonymous?: boolean }).isAnonymous || !(await claimFirstAppAdmin(db))
                      ? 'user'
                      : 'admin',
              },
            }
          },
        },
      },
      account: {
        create: {
          before: async (account, ctx) => {
            for (const extension of appAuthExtensions) await extension.beforeAccountCreated?.(db, account.userId, ctx)
          },
        },
      },
      session: {
        create: {
          // Every session works in an organization: the user's first, or a personal workspace made for a new account.
          before: async (session, ctx) => {
            const [user] = await db
              .select({ id: users.id, name: users.name, email: users.email })
              .from(users)
              .where(eq(users.id, session.userId))
            if (!user) return
            // An app may refuse the session, or open it in an organization: a single sign-on opens it in the
            // connection's organization (joining it the first time), and refuses other sign-ins of a domain that
            // must use SSO.
            let chosenByApp: string | undefined
            for (const extension of appAuthExtensions) {
              chosenByApp = (await extension.beforeSessionCreated?.(db, ctx, user)) ?? chosenByApp
            }
            const current = chosenByApp ?? (session as { activeOrganizationId?: string | null }).activeOrganizationId
            const activeOrganizationId = await chooseActiveOrganization(
              db,
              user,
              localeOfRequest(ctx?.request),
              current,
            )
            const signInMethod = signInMethodOf(ctx?.path, ctx?.params as Record<string, unknown> | undefined)
            return { data: { ...session, activeOrganizationId, signInMethod } }
          },
          after: async (session) => markUserActive(db, session),
        },
        // Better Auth refreshes a session in use about once a day (its updateAge): a day the person was active.
        update: { after: async (session) => markUserActive(db, session) },
      },
    },
    // Deleting an account asks for the password again (re-authentication) in the account area.
    user: {
      deleteUser: {
        enabled: true,
        // An organization never loses its last owner with its members still in it; one the user alone is in goes too.
        beforeDelete: async (user) => accountDeletionOrganizations(db, user.id),
        // Its pictures go with it, through the queue (retried while the storage is away).
        afterDelete: async (user) => deleteAccountFiles(user.id),
      },
      // The new address gets a verification link; the email changes only when that link is opened.
      changeEmail: { enabled: true },
    },
    plugins: [
      username(),
      magicLink({
        expiresIn: magicLinkMinutes * 60,
        sendMagicLink: ({ email, url }, ctx) => sendMagicLink(db, email, url, ctx?.request),
      }),
      emailOTP({
        otpLength: 6,
        expiresIn: oneTimeCodeMinutes * 60,
        allowedAttempts: 3,
        sendVerificationOTP: ({ email, otp, type }, ctx) =>
          sendOneTimeCode(db, { to: email, code: otp, purpose: type as OneTimeCodePurpose, request: ctx?.request }),
      }),
      twoFactor({
        issuer: 'Hatch',
        otpOptions: {
          period: oneTimeCodeMinutes,
          sendOTP: ({ user, otp }, ctx) =>
            sendOneTimeCode(db, { to: user.email, code: otp, purpose: 'two-factor', request: ctx?.request }),
        },
        backupCodeOptions: { amount: 10, length: 10 },
      }),
      twoFactorChallengeStatus(),
      anonymous({
        emailDomainName: 'guest.hatch.invalid',
        // Stored in the guest's language, so the menu and the sessions list read "Guest" / "访客", not "Anonymous".
        generateName: (ctx) => m.guest_name({}, { locale: localeOfRequest(ctx.request) }),
        // A guest who signs up (or signs in) keeps what they made: move it to the new user before the guest is
        // deleted (sessions, accounts and the rest cascade away with the guest). Passkeys move too, or the guest's
        // authenticator would keep a credential for a user that no longer exists.
        onLinkAccount: async ({ anonymousUser, newUser }) => {
          const guestId = anonymousUser.user.id
          const ownerId = newUser.user.id
          await db.transaction(async (tx) => {
            await tx.update(apiKeys).set({ referenceId: ownerId }).where(eq(apiKeys.referenceId, guestId))
            await tx.update(passkeys).set({ userId: ownerId }).where(eq(passkeys.userId, guestId))
          })
          // The guest's workspace (and anything in it) belongs to the account from now on.
          await moveMemberships(db, guestId, ownerId)
        },
      }),
      keepNewSessionCookie(),
      passkey({
        rpID: new URL(env.APP_URL).hostname,
        rpName: 'Hatch',
        origin: env.APP_URL,
      }),
      passkeyNameLimit(),
      accountDeletionGuard(),
      // Before the api-key plugin: its hook answers get-session with the key's session, and nothing runs after it.
      ...appPlugins(db, 'earlyPlugins'),
      apiKey({
        // `x-api-key: hatch_…` authenticates tRPC calls as the key's owner (src/server/trpc/init.ts).
        apiKeyHeaders: [apiKeyHeader],
        enableSessionForAPIKeys: true,
        defaultPrefix: 'hatch_',
        // A name tells keys apart in the list; the list shows `hatch_` plus 4 characters, never the whole key.
        requireName: true,
        minimumNameLength: 1,
        maximumNameLength: apiKeyLimits.nameMax,
        startingCharactersConfig: { shouldStore: true, charactersLength: apiKeyLimits.startLength },
        keyExpiration: { minExpiresIn: 1, maxExpiresIn: apiKeyLimits.maxExpiryDays },
        // Counted by the app in fixed windows (consumeApiKeyCall in src/server/rate-limit.ts); see the reason there.
        rateLimit: { enabled: false },
      }),
      multiSession({ maximumSessions: 5 }),
      rememberMeCoversDeviceSessions(),
      genericOAuth({
        config: env.OAUTH_PROVIDERS.map((provider) => ({
          providerId: provider.id,
          discoveryUrl: provider.discoveryUrl,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
          scopes: provider.scopes,
          pkce: true,
          // Signing out of this app leaves the provider's own session alone, as with GitHub and Google. Otherwise
          // sign-out raced our redirect to the sign-in page with one to the provider's end-session page, and
          // without a registered post-logout URI the user was left there.
          disableProviderLogout: true,
        })),
      }),
      oneTap({ clientId: env.GOOGLE_CLIENT_ID }),
      organizationPlugin(db),
      organizationChecks(db),
      ...appPlugins(db, 'plugins'),
      userAdministration(db),
      // App-wide roles (`admin`, `user`), apart from organization roles; src/server/trpc/init.ts guards on them.
      admin({ defaultRole: 'user', adminRoles: ['admin'], impersonationSessionDuration: impersonationMinutes * 60 }),
      emailVerificationGate(db),
      signInThrottle(db),
      sessionCopyOnlyForReads(),
      tanstackStartCookies(),
    ],
    ...(options.secondaryStorage
      ? {
          secondaryStorage: options.secondaryStorage,
          verification: { storeInDatabase: true },
        }
      : {}),
    rateLimit: {
      enabled: true,
      storage: options.secondaryStorage ? 'secondary-storage' : 'database',
      ...(options.rateLimitStorage ? { customStorage: options.rateLimitStorage } : {}),
      ...authRateLimitRules(env),
    },
    // Its default logger prints whole errors: a failed session lookup would put the session token in the log.
    logger: { log: authLog },
    advanced: {
      cookiePrefix: authCookiePrefix,
      useSecureCookies: env.APP_URL.startsWith('https://'),
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
    },
    hooks: { before: authRequestGuard(db, env, genericProviderIds) },
  })
}

export type Auth = ReturnType<typeof createAuth>

let auth: Auth | undefined
let redis: Redis | undefined

/** One Better Auth instance per database, so tRPC checks sessions against the database it was handed. */
const authByDatabase = new WeakMap<Database, Auth>()

export function authForDatabase(db: Database): Auth {
  // The app's own database gets the app's instance (with Redis when configured).
  if (isAppDatabase(db)) return getAuth()
  let instance = authByDatabase.get(db)
  if (!instance) {
    instance = createAuth(db)
    authByDatabase.set(db, instance)
  }
  return instance
}

/** The process-wide Better Auth instance, on the app's database (and on Redis when REDIS_URL is set). */
export function getAuth(): Auth {
  if (auth) return auth
  const { REDIS_URL } = getEnv()
  if (REDIS_URL) redis = connectRedis(REDIS_URL)
  auth = createAuth(getDb(), {
    secondaryStorage: redis ? createRedisStorage(redis) : undefined,
    rateLimitStorage: redis ? createRedisRateLimits(redis, getDb()) : undefined,
  })
  return auth
}

/** The Redis connection sessions live on, when REDIS_URL is set (the health check pings it). */
export function getAuthRedis(): Redis | undefined {
  // Without REDIS_URL there is none: a new server's first health check does not wait for Better Auth to be built.
  if (!getEnv().REDIS_URL) return undefined
  getAuth()
  return redis
}

/** Closes the Redis connection during shutdown, after in-flight requests finished. */
export async function closeAuthResources(): Promise<void> {
  // A lock email goes out after its answer: it still leaves before the server stops.
  await signInLockEmailsSent()
  if (redis) await closeRedis(redis)
  redis = undefined
  auth = undefined
}
