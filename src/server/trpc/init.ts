import { initTRPC, TRPCError } from '@trpc/server'
import { APIError } from 'better-auth/api'
import superjson from 'superjson'
import { ZodError, z } from 'zod'
import { authForDatabase } from '../auth/auth'
import type { TrpcContext } from './context'

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  // Stack traces only in development; production answers never show the server's internals.
  isDev: process.env.NODE_ENV === 'development',
  errorFormatter({ shape, error, type, path, ctx }) {
    const cause = error.cause
    const isMissingProcedure = error.code === 'NOT_FOUND' && error.message.startsWith('No procedure found')
    const kind = type !== 'unknown' ? type : ctx?.method === 'POST' ? 'mutation' : 'query'
    return {
      ...shape,
      message: isMissingProcedure ? `No "${kind}"-procedure on path "${path}"` : shape.message,
      data: {
        ...shape.data,
        // Field errors let a form show each message beside its field; the client translates by code.
        fieldErrors:
          error.code === 'BAD_REQUEST' && cause instanceof ZodError ? z.flattenError(cause).fieldErrors : undefined,
      },
    }
  },
})

export const createRouter = t.router
/** Anyone may call it. */
export const publicProcedure = t.procedure

/**
 * Needs a signed-in user: the session cookie, or an API key in `x-api-key` (Better Auth's api-key plugin turns a
 * valid key into its owner's session). No session, or a revoked or expired key, is 401 UNAUTHORIZED; a throttled key 429.
 */
export const protectedProcedure = t.procedure.use(async ({ ctx, next }) => {
  let session: Awaited<ReturnType<ReturnType<typeof authForDatabase>['api']['getSession']>>
  try {
    session = await authForDatabase(ctx.db).api.getSession({ headers: ctx.headers })
  } catch (error) {
    // A key used too often is throttled, not revoked: 429 tells its caller to slow down rather than to replace it.
    if (error instanceof APIError && error.statusCode === 429) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: error.message, cause: error })
    }
    if (error instanceof APIError && error.statusCode < 500) {
      throw new TRPCError({ code: 'UNAUTHORIZED', message: error.message, cause: error })
    }
    throw error
  }
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' })
  return next({ ctx: { ...ctx, session: session.session, user: session.user } })
})
