import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api'
import { eq, type SQL, sql } from 'drizzle-orm'
import { emailMaxLength } from '#/lib/account-rules'
import { z } from '#/lib/zod'
import type { Database } from '../db/client'
import { signInThrottles, users } from '../db/schema'
import { signInLockedEmail } from '../email/templates'
import { getEnv } from '../env'
import { log } from '../log'
import { sendAuthEmail } from './auth-emails'

/**
 * Failed sign-ins per account, on top of the per-address limits in auth.ts (OWASP ASVS V2.2.1): guesses spread over
 * many addresses are slowed too. The lock is short and grows only while failures go on, so an attacker cannot keep the
 * owner out for long; a link in an email, a passkey, a provider or a password reset still signs the owner in.
 */
export interface SignInThrottlePolicy {
  /** Failures within the window that lock the account. */
  maxFailures: number
  windowSeconds: number
  /** The first lock; each further one in a row lasts twice as long, up to `maxLockSeconds`. */
  firstLockSeconds: number
  maxLockSeconds: number
}

export const signInThrottlePolicy: SignInThrottlePolicy = {
  maxFailures: 5,
  windowSeconds: 15 * 60,
  firstLockSeconds: 60,
  maxLockSeconds: 15 * 60,
}

/** A run of locks is forgotten this long after the last one ended: the next starts at `firstLockSeconds` again. */
const lockStreakMemoryMs = 24 * 60 * 60 * 1000

const emailPaths = new Set(['/sign-in/email', '/sign-in/email-otp', '/email-otp/verify-email'])
const twoFactorPaths = new Set(['/two-factor/verify-totp', '/two-factor/verify-otp', '/two-factor/verify-backup-code'])
const throttledPaths = new Set([...emailPaths, '/sign-in/username', ...twoFactorPaths])

/** The answers that mean "wrong password or code"; any other refusal neither counts nor resets. */
const wrongCredentialCodes = new Set([
  'INVALID_EMAIL_OR_PASSWORD',
  'INVALID_USERNAME_OR_PASSWORD',
  'INVALID_OTP',
  'OTP_EXPIRED',
  'TOO_MANY_ATTEMPTS',
  'INVALID_CODE',
  'INVALID_BACKUP_CODE',
  'OTP_HAS_EXPIRED',
  'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE',
])

interface Account {
  key: string
  user: { id: string; email: string; name: string } | null
}

interface Attempt extends Account {
  /** Set when this attempt was the one that locked the account: the lock's length. */
  startedLockSeconds: number | null
}

/**
 * The trimmed, lower-case identifier, or null for one no account can have (this runs before Better Auth validates
 * the body, and a megabyte or a NUL character must reach neither the key's index nor a query: Better Auth refuses it).
 */
function normalise(value: unknown, kind: 'email' | 'username'): string | null {
  if (typeof value !== 'string') return null
  const identifier = value.trim().toLowerCase()
  if (identifier === '' || identifier.length > emailMaxLength || identifier.includes('\u0000')) return null
  return kind === 'email' && !z.email().safeParse(identifier).success ? null : identifier
}

const userColumns = { id: users.id, email: users.email, name: users.name }

/**
 * The account a request names: `user:{id}` when it exists (its email, username and second factor share one count),
 * else the normalised identifier, so that an unknown account is counted and answered exactly like a known one.
 */
async function accountOf(
  db: Database,
  ctx: { path?: string; body?: unknown },
  challengeUserId: () => Promise<string | null>,
): Promise<Account | null> {
  const body = (typeof ctx.body === 'object' && ctx.body !== null ? ctx.body : {}) as Record<string, unknown>
  const path = ctx.path ?? ''
  const named = async (where: SQL, fallback: string): Promise<Account> => {
    const [user] = await db.select(userColumns).from(users).where(where)
    return user ? { key: `user:${user.id}`, user } : { key: fallback, user: null }
  }
  if (emailPaths.has(path) || path === '/email-otp/reset-password') {
    const email = normalise(body.email, 'email')
    return email ? named(eq(users.email, email), `email:${email}`) : null
  }
  if (path === '/sign-in/username') {
    const username = normalise(body.username, 'username')
    return username ? named(eq(users.username, username), `username:${username}`) : null
  }
  const userId = await challengeUserId()
  return userId ? named(eq(users.id, userId), `user:${userId}`) : null
}

type AttemptStart = { refusedForSeconds: number } | { refusedForSeconds: null; startedLockSeconds: number | null }

/**
 * Counts an attempt before it runs (so that concurrent guesses cannot all slip in before the first one fails) or
 * refuses it while the account is locked. The row lock makes every app server see one count.
 */
export async function beginSignInAttempt(
  db: Database,
  key: string,
  policy: SignInThrottlePolicy = signInThrottlePolicy,
): Promise<AttemptStart> {
  return db.transaction(async (tx) => {
    await tx.insert(signInThrottles).values({ key }).onConflictDoNothing()
    const [row] = await tx
      .select({
        failures: signInThrottles.failures,
        windowStartedAt: signInThrottles.windowStartedAt,
        lockedUntil: signInThrottles.lockedUntil,
        locks: signInThrottles.locks,
        nowMs: sql<number>`extract(epoch from now()) * 1000`.mapWith(Number),
      })
      .from(signInThrottles)
      .where(eq(signInThrottles.key, key))
      .for('update')
    if (!row) throw new Error(`sign-in throttle row ${key} vanished inside its transaction`)
    const now = row.nowMs
    const lockedUntil = row.lockedUntil?.getTime() ?? null
    if (lockedUntil !== null && lockedUntil > now) {
      return { refusedForSeconds: Math.max(1, Math.ceil((lockedUntil - now) / 1000)) }
    }
    const windowOpen = row.windowStartedAt.getTime() > now - policy.windowSeconds * 1000
    const failures = (windowOpen ? row.failures : 0) + 1
    if (failures < policy.maxFailures) {
      await tx
        .update(signInThrottles)
        .set({ failures, windowStartedAt: windowOpen ? row.windowStartedAt : new Date(now) })
        .where(eq(signInThrottles.key, key))
      return { refusedForSeconds: null, startedLockSeconds: null }
    }
    const locksInARow = lockedUntil !== null && lockedUntil > now - lockStreakMemoryMs ? row.locks : 0
    const lockSeconds = Math.min(policy.firstLockSeconds * 2 ** locksInARow, policy.maxLockSeconds)
    await tx
      .update(signInThrottles)
      .set({
        failures: 0,
        windowStartedAt: new Date(now),
        lockedUntil: new Date(now + lockSeconds * 1000),
        locks: locksInARow + 1,
      })
      .where(eq(signInThrottles.key, key))
    return { refusedForSeconds: null, startedLockSeconds: lockSeconds }
  })
}

/** An attempt that turned out not to be a wrong password or code (e.g. a right password awaiting its second factor). */
async function refundAttempt(db: Database, key: string) {
  await db
    .update(signInThrottles)
    .set({ failures: sql`greatest(${signInThrottles.failures} - 1, 0)` })
    .where(eq(signInThrottles.key, key))
}

async function forgetFailures(db: Database, key: string) {
  await db.delete(signInThrottles).where(eq(signInThrottles.key, key))
}

const emailsInFlight = new Set<Promise<void>>()

/** Waits for lock emails still being sent (they leave after the answer, so its timing says nothing of the account). */
export async function signInLockEmailsSent(): Promise<void> {
  await Promise.allSettled([...emailsInFlight])
}

function tellOwner(db: Database, user: NonNullable<Account['user']>, lockSeconds: number, request?: Request) {
  const sending = (async () => {
    await sendAuthEmail(db, { request }, (context) =>
      signInLockedEmail({
        to: user.email,
        name: user.name,
        minutes: Math.ceil(lockSeconds / 60),
        url: `${getEnv().APP_URL}/${context.locale}/forgot-password`,
        ...context,
      }),
    )
  })()
    .catch((error: unknown) => log().error({ err: error }, 'the account lock email was not sent'))
    .finally(() => emailsInFlight.delete(sending))
  emailsInFlight.add(sending)
}

/** Better Auth's 429 for a locked account: the code the client translates and how long to wait. */
export function accountLockedError(seconds: number) {
  return new APIError(
    'TOO_MANY_REQUESTS',
    {
      code: 'ACCOUNT_TEMPORARILY_LOCKED',
      message: 'Too many failed sign-in attempts for this account; try again later',
      retryAfterSeconds: seconds,
    },
    { 'Retry-After': String(seconds) },
  )
}

export function signInThrottle(db: Database, policy: SignInThrottlePolicy = signInThrottlePolicy) {
  // What the before hook learnt, for the after hook of the same request (Better Auth gives both one context object).
  const attempts = new WeakMap<object, Attempt>()
  const passwordResets = new WeakMap<object, string>()
  return {
    id: 'hatch-sign-in-throttle',
    hooks: {
      before: [
        {
          matcher: (ctx) => throttledPaths.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const account = await accountOf(db, ctx, async () => {
              // The user of the pending challenge, as Better Auth's two-factor plugin finds it.
              const cookie = ctx.context.createAuthCookie('two_factor')
              const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret)
              if (!identifier) return null
              return (await ctx.context.internalAdapter.findVerificationValue(identifier))?.value ?? null
            })
            if (!account) return
            const start = await beginSignInAttempt(db, account.key, policy)
            if (start.refusedForSeconds !== null) throw accountLockedError(start.refusedForSeconds)
            attempts.set(ctx.context, { ...account, startedLockSeconds: start.startedLockSeconds })
          }),
        },
        {
          // A password reset proves the mailbox: it lifts the lock (the lock email points there).
          matcher: (ctx) => ctx.path === '/reset-password' || ctx.path === '/email-otp/reset-password',
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as Record<string, unknown>
            if (ctx.path === '/email-otp/reset-password') {
              const account = await accountOf(db, ctx, async () => null)
              if (account) passwordResets.set(ctx.context, account.key)
              return
            }
            if (typeof body.token !== 'string') return
            const reset = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${body.token}`)
            if (reset) passwordResets.set(ctx.context, `user:${reset.value}`)
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => throttledPaths.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const attempt = attempts.get(ctx.context)
            if (!attempt) return
            const returned = ctx.context.returned
            const wrongCredential =
              isAPIError(returned) && wrongCredentialCodes.has(String((returned.body as { code?: unknown })?.code))
            if (!isAPIError(returned) && ctx.context.newSession) {
              await forgetFailures(db, attempt.key)
              return
            }
            if (attempt.startedLockSeconds !== null) {
              if (attempt.user) tellOwner(db, attempt.user, attempt.startedLockSeconds, ctx.request)
              return
            }
            if (!wrongCredential) await refundAttempt(db, attempt.key)
          }),
        },
        {
          // Any other way in (magic link, passkey, provider) shows the owner is back: the count starts over.
          matcher: (ctx) =>
            Boolean(ctx.context.newSession) && !throttledPaths.has(ctx.path ?? '') && !ctx.path?.startsWith('/admin/'),
          handler: createAuthMiddleware(async (ctx) => {
            const userId = ctx.context.newSession?.user.id
            if (userId) await forgetFailures(db, `user:${userId}`)
          }),
        },
        {
          matcher: (ctx) => ctx.path === '/reset-password' || ctx.path === '/email-otp/reset-password',
          handler: createAuthMiddleware(async (ctx) => {
            const key = passwordResets.get(ctx.context)
            if (key && !isAPIError(ctx.context.returned)) await forgetFailures(db, key)
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin
}
