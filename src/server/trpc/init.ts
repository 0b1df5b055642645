import { initTRPC, TRPCError } from '@trpc/server'
import { APIError } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import superjson from 'superjson'
import { denialMessage, type Permissions } from '#/lib/access-control'
import { ZodError, z } from '#/lib/zod'
import { type Auth, apiKeyHeader, authForDatabase } from '../auth/auth'
import {
  accessAllows,
  keyOwnerOrganizationId,
  loadOrganizationAccess,
  readOrganizationAccess,
} from '../auth/organization-access'
import { readSession, sessionCopySeconds } from '../auth/session-reads'
import { isBanActive } from '../auth/user-administration'
import { users } from '../db/schema'
import { failureCodeOf, noteFailure } from '../failure-answers'
import { recordProcedure } from '../metrics'
import { PlanLimitError } from '../plan-limits'
import { consumeApiKeyCall, RateLimitExceeded } from '../rate-limit'
import { inSpan } from '../tracing'
import type { TrpcContext, VerifiedSession } from './context'

/**
 * A refusal the client translates by its own code (`error_code_{appCode}` in messages/), with values for the
 * message's placeholders; the tRPC code still tells the kind (FORBIDDEN, NOT_FOUND, …).
 */
export class AppError extends TRPCError {
  readonly appCode: string
  readonly params: Record<string, string>
  /** The form field the refusal is about: the client shows `message` (a message key) beside it. */
  readonly field: string | undefined
  constructor(options: {
    code: TRPCError['code']
    appCode: string
    message: string
    params?: Record<string, string>
    field?: string
    cause?: unknown
  }) {
    super({ code: options.code, message: options.message, cause: options.cause })
    this.appCode = options.appCode
    this.params = options.params ?? {}
    this.field = options.field
  }
}

/** Too many requests from one caller: 429 with Retry-After (handler.ts), translated on the client. */
export function tooManyRequests(retryAfterSeconds: number, message: string): AppError {
  return new AppError({
    code: 'TOO_MANY_REQUESTS',
    appCode: 'TOO_MANY_REQUESTS',
    message,
    cause: new RateLimitExceeded(retryAfterSeconds),
  })
}

/** What a client reads when the real message stays on the server; it translates `data.appCode` (the tRPC code). */
const genericMessages: Record<TRPCError['code'], string> = {
  PARSE_ERROR: 'Parse error',
  BAD_REQUEST: 'Bad request',
  INTERNAL_SERVER_ERROR: 'Internal server error',
  NOT_IMPLEMENTED: 'Not implemented',
  BAD_GATEWAY: 'Bad gateway',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  GATEWAY_TIMEOUT: 'Gateway timeout',
  UNAUTHORIZED: 'Unauthorized',
  PAYMENT_REQUIRED: 'Payment required',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'Not found',
  METHOD_NOT_SUPPORTED: 'Method not supported',
  TIMEOUT: 'Timeout',
  CONFLICT: 'Conflict',
  PRECONDITION_FAILED: 'Precondition failed',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  UNPROCESSABLE_CONTENT: 'Unprocessable content',
  PRECONDITION_REQUIRED: 'Precondition required',
  TOO_MANY_REQUESTS: 'Too many requests',
  CLIENT_CLOSED_REQUEST: 'Client closed request',
}

/**
 * Whether a refusal's message repeats a database error below it (a 4xx thrown with `message: error.message`): the
 * query text and its parameters would go out with it.
 */
function quotesDatabaseError(error: TRPCError): boolean {
  if (/Failed query:/i.test(error.message)) return true
  let link: unknown = error.cause
  for (let depth = 0; link instanceof Error && depth < 10; link = link.cause, depth++) {
    const fromDatabase = link.name === 'DrizzleQueryError' || ('severity' in link && 'code' in link)
    if (fromDatabase && link.message && error.message.includes(link.message)) return true
  }
  return false
}

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  // Stack traces only in development; production answers never show the server's internals.
  isDev: process.env.NODE_ENV === 'development',
  errorFormatter({ shape, error, type, path, ctx }) {
    const cause = error.cause
    const isMissingProcedure = error.code === 'NOT_FOUND' && error.message.startsWith('No procedure found')
    const kind = type !== 'unknown' ? type : ctx?.method === 'POST' ? 'mutation' : 'query'
    // The database down (or its disk full) is no fault of the request: 503 with Retry-After (handler.ts), translated.
    const fault = noteFailure(error)
    if (fault) {
      return {
        ...shape,
        message: fault === 'storage-full' ? 'Storage full' : 'Service unavailable',
        data: { ...shape.data, code: 'SERVICE_UNAVAILABLE', httpStatus: 503, appCode: failureCodeOf(fault) },
      }
    }
    // An unexpected error's message is the thrown error's own (a failed query's SQL and parameters, a library's
    // internals): only the server's log sees it. Refusals the app words itself (AppError) keep their message.
    const hidden = !(error instanceof AppError) && (shape.data.httpStatus >= 500 || quotesDatabaseError(error))
    return {
      ...shape,
      message: isMissingProcedure
        ? `No "${kind}"-procedure on path "${path}"`
        : hidden
          ? genericMessages[error.code]
          : shape.message,
      data: {
        ...shape.data,
        appCode: error instanceof AppError ? error.appCode : hidden ? error.code : undefined,
        params: error instanceof AppError ? error.params : undefined,
        // Field errors let a form show each message beside its field; the client translates by code.
        fieldErrors:
          error instanceof AppError && error.field
            ? { [error.field]: [error.message] }
            : error.code === 'BAD_REQUEST' && cause instanceof ZodError
              ? z.flattenError(cause).fieldErrors
              : undefined,
      },
    }
  },
})

export const createRouter = t.router
export const createCallerFactory = t.createCallerFactory

/** A plan's limit reached anywhere below a procedure is a translated 403 with the limit, never a 500. */
const planLimitRefusals = t.middleware(async ({ next }) => {
  const result = await next()
  if (!result.ok && result.error.cause instanceof PlanLimitError) {
    const { code, limit, planId, message, params: written } = result.error.cause
    const params: Record<string, string> = { limit: String(limit), plan: planId, ...written }
    throw new AppError({ code: 'FORBIDDEN', appCode: code, message, params })
  }
  return result
})

/** Each procedure's run time and outcome, for the metrics (error code when it failed). */
const measured = t.middleware(({ path, type, next }) =>
  inSpan(
    `trpc ${path}`,
    { attributes: { 'rpc.system': 'trpc', 'rpc.method': path, 'hatch.trpc.type': type } },
    async (span) => {
      const started = performance.now()
      const result = await next()
      const outcome = result.ok ? 'ok' : result.error.code
      recordProcedure(path, outcome, (performance.now() - started) / 1000)
      span.setAttribute('hatch.trpc.outcome', outcome)
      return result
    },
  ),
)

/** Anyone may call it. */
export const publicProcedure = t.procedure.use(measured).use(planLimitRefusals)

/**
 * Needs a signed-in user: the session cookie, or an API key in `x-api-key` (Better Auth's api-key plugin turns a
 * valid key into its owner's session). No session, or a revoked or expired key, is 401 UNAUTHORIZED; a throttled key 429.
 */
export const protectedProcedure = publicProcedure.use(async ({ ctx, next, type }) => {
  let session: VerifiedSession | null = ctx.verifiedSession ?? null
  if (!session) {
    try {
      // A change reads the session from the database, never from the browser's signed copy: a session revoked on
      // another device (or a banned user) may still read for SESSION_CACHE_SECONDS, but changes nothing.
      const auth = authForDatabase(ctx.db)
      session =
        type === 'mutation'
          ? await auth.api.getSession({ headers: ctx.headers, query: { disableCookieCache: true } })
          : await readSessionOnce(auth, ctx)
    } catch (error) {
      if (error instanceof APIError && error.statusCode < 500) {
        const body = error.body as { code?: string } | undefined
        throw new AppError({ code: 'UNAUTHORIZED', appCode: body?.code ?? 'UNAUTHORIZED', message: error.message })
      }
      throw error
    }
    if (session && ctx.headers.has(apiKeyHeader)) await countApiKeyCall(ctx.db, session.session.id)
  }
  if (!session) throw new AppError({ code: 'UNAUTHORIZED', appCode: 'UNAUTHORIZED', message: 'Sign in to continue' })
  // A ban ends every session, but an API key would still open one: a banned user's keys stop working too.
  if (isBanActive(session.user as { banned?: boolean | null; banExpires?: Date | null })) {
    throw new AppError({ code: 'UNAUTHORIZED', appCode: 'BANNED_USER', message: 'This account is suspended' })
  }
  return next({ ctx: { ...ctx, session: session.session, user: session.user } })
})

/** The session read of each request, shared by the queries of one batch (or one page render). */
const sessionReads = new WeakMap<Headers, { auth: Auth; read: Promise<VerifiedSession | null> }>()

/**
 * The session a query runs as, read once per request: a batch of queries whose signed copy has expired makes one
 * read of the session store, not one per query. The fresh copy that read made goes back to the browser with the
 * answer, as it does from GET /api/auth/get-session; otherwise a console that only calls the API kept sending the
 * expired copy, and every call read the store again until the next page load.
 */
function readSessionOnce(auth: Auth, ctx: TrpcContext): Promise<VerifiedSession | null> {
  const known = sessionReads.get(ctx.headers)
  if (known?.auth === auth) return known.read
  const read = readSession(auth, ctx.headers).then(({ session, headers }) => {
    const cookies = headers?.getSetCookie() ?? []
    // An API key or a bearer token is not a browser: it keeps no cookies.
    const browser = !ctx.headers.has(apiKeyHeader) && !ctx.headers.has('authorization')
    if (browser) for (const cookie of cookies) ctx.responseHeaders?.append('Set-Cookie', cookie)
    return session
  })
  sessionReads.set(ctx.headers, { auth, read })
  return read
}

/**
 * One call of an API key (a key's session carries the key's id). A key used too often is throttled, not revoked:
 * 429 with Retry-After tells its caller to slow down rather than to replace it.
 */
async function countApiKeyCall(db: TrpcContext['db'], keyId: string): Promise<void> {
  const rate = await consumeApiKeyCall(db, keyId)
  if (!rate.allowed) {
    throw tooManyRequests(
      rate.retryAfterSeconds,
      `This API key made too many calls; try again in ${rate.retryAfterSeconds} s.`,
    )
  }
}

/** The app-wide `admin` role (Better Auth's admin plugin), which organization roles never grant. */
export function isAppAdmin(user: { role?: string | null }): boolean {
  return (user.role ?? '').split(',').some((role) => role.trim() === 'admin')
}

/**
 * Needs an app admin (Configuration, Users); anyone else gets 403. The role is read from the database, not from the
 * session's cookie copy, so a demoted admin loses these powers at once rather than when that copy lapses. A read
 * reads it once per request: an admin's Dashboard asks three admin queries in one render.
 */
export const adminProcedure = protectedProcedure.use(async ({ ctx, next, type }) => {
  const admin = type === 'mutation' ? await readAppAdmin(ctx.db, ctx.user.id) : await readAppAdminOnce(ctx)
  if (!admin) {
    throw new AppError({ code: 'FORBIDDEN', appCode: 'APP_ADMIN_ONLY', message: 'Only app admins may do this' })
  }
  return next()
})

async function readAppAdmin(db: TrpcContext['db'], userId: string): Promise<boolean> {
  const [current] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId))
  return current !== undefined && isAppAdmin(current)
}

/** The app-admin check of each request, shared by the queries of one batch (or one page render). */
const appAdminReads = new WeakMap<Headers, { userId: string; read: Promise<boolean> }>()

function readAppAdminOnce(ctx: TrpcContext & { user: { id: string } }): Promise<boolean> {
  const known = appAdminReads.get(ctx.headers)
  if (known?.userId === ctx.user.id) return known.read
  const read = readAppAdmin(ctx.db, ctx.user.id)
  appAdminReads.set(ctx.headers, { userId: ctx.user.id, read })
  return read
}

/**
 * Works on the session's active organization (never an id the client names) and needs `required` there: the
 * member's roles, built-in or custom, must grant every listed action (SPEC section 6).
 */
export function orgProcedure(required: Permissions) {
  return protectedProcedure.use(async ({ ctx, next, type }) => {
    const organizationId =
      (ctx.session as { activeOrganizationId?: string | null }).activeOrganizationId ??
      (ctx.headers.has(apiKeyHeader) ? await keyOwnerOrganizationId(ctx.db, ctx.user.id) : null)
    if (!organizationId) {
      throw new AppError({ code: 'BAD_REQUEST', appCode: 'NO_ACTIVE_ORGANIZATION', message: 'No active organization' })
    }
    // Like the session: a change checks the database; a read may use what this server remembers for that long.
    const access =
      type === 'mutation'
        ? await loadOrganizationAccess(ctx.db, ctx.user.id, organizationId)
        : await readOrganizationAccess(
            ctx.db,
            ctx.user.id,
            organizationId,
            sessionCopySeconds(authForDatabase(ctx.db)) * 1000,
          )
    if (!access) {
      throw new AppError({
        code: 'FORBIDDEN',
        appCode: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
        message: 'You are not a member of this organization',
      })
    }
    if (!accessAllows(access, required)) {
      throw new AppError({
        code: 'FORBIDDEN',
        appCode: 'NOT_ALLOWED_TO_ACCESS_RESOURCE',
        message: denialMessage(required),
        params: { resource: Object.keys(required)[0] ?? '' },
      })
    }
    return next({
      ctx: { ...ctx, organization: access.organization, member: access.member, permissions: access.permissions },
    })
  })
}
