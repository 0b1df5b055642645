import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { username } from 'better-auth/plugins'
import { tanstackStartCookies } from 'better-auth/tanstack-start'
import { passwordLimits, passwordNeedsLetterAndNumber } from '#/lib/password-policy'
import { resolveAuthSecret } from '../auth-secret'
import type { Database } from '../db/client'
import { getDb } from '../db/database'
import { accounts, authRateLimits, sessions, users, verifications } from '../db/schema'
import { sendEmail } from '../email/mailer'
import { resetPasswordEmail, verificationEmail } from '../email/templates'
import { getEnv } from '../env'
import { localeOfRequest } from '../request-locale'
import { getSiteSettings } from '../settings'

/** The server puts the client's address here (scripts/serve.ts decides whether proxies are trusted); clients can't. */
export const clientIpHeader = 'x-hatch-client-ip'

export function createAuth(db: Database) {
  const env = getEnv()
  const { secret } = resolveAuthSecret({ configured: env.BETTER_AUTH_SECRET, dataDir: env.DATA_DIR })
  return betterAuth({
    appName: 'Hatch',
    baseURL: env.APP_URL,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [env.APP_URL],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: authRateLimits,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: passwordLimits.min,
      maxPasswordLength: passwordLimits.max,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }, request) => {
        const { productName } = await getSiteSettings(db)
        const locale = localeOfRequest(request)
        await sendEmail(db, resetPasswordEmail({ to: user.email, name: user.name, url, product: productName, locale }))
      },
    },
    // Sign-up sends a verification email; signing in stays allowed, and the console asks to verify.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }, request) => {
        const { productName } = await getSiteSettings(db)
        const locale = localeOfRequest(request)
        await sendEmail(db, verificationEmail({ to: user.email, name: user.name, url, product: productName, locale }))
      },
    },
    // Deleting an account asks for the password again (re-authentication) in the account area.
    user: { deleteUser: { enabled: true } },
    plugins: [username(), tanstackStartCookies()],
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      // Attempts per minute per client address (AUTH_SIGN_IN_LIMIT, AUTH_SIGN_UP_LIMIT).
      customRules: {
        '/sign-in/*': { window: 60, max: env.AUTH_SIGN_IN_LIMIT },
        '/sign-up/*': { window: 60, max: env.AUTH_SIGN_UP_LIMIT },
      },
    },
    advanced: {
      cookiePrefix: 'hatch',
      useSecureCookies: env.APP_URL.startsWith('https://'),
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // Methods switched off in site settings answer with their error code, whatever the client sends.
        const settings = await getSiteSettings(db)
        const emailPasswordPath = ctx.path === '/sign-in/email' || ctx.path === '/sign-up/email'
        if (emailPasswordPath && !settings.authEmailPassword) {
          throw new APIError('BAD_REQUEST', {
            code: 'EMAIL_AND_PASSWORD_IS_NOT_ENABLED',
            message: 'Email and password is not enabled',
          })
        }
        if (ctx.path === '/sign-in/username' && !(settings.authUsername && settings.authEmailPassword)) {
          throw new APIError('BAD_REQUEST', {
            code: 'USERNAME_SIGN_IN_IS_NOT_ENABLED',
            message: 'Username sign-in is not enabled',
          })
        }
        // Better Auth checks length; the product also wants a letter and a digit.
        if (ctx.path !== '/sign-up/email' && ctx.path !== '/reset-password') return
        const password = (ctx.body as { password?: unknown; newPassword?: unknown } | undefined) ?? {}
        const candidate = ctx.path === '/sign-up/email' ? password.password : password.newPassword
        if (typeof candidate === 'string' && passwordNeedsLetterAndNumber(candidate)) {
          throw new APIError('BAD_REQUEST', {
            code: 'PASSWORD_NEEDS_LETTER_AND_NUMBER',
            message: 'Password must contain at least one letter and one number',
          })
        }
      }),
    },
  })
}

export type Auth = ReturnType<typeof createAuth>

let auth: Auth | undefined

/** The process-wide Better Auth instance, on the app's database. */
export function getAuth(): Auth {
  auth ??= createAuth(getDb())
  return auth
}
