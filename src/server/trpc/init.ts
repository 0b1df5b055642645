import { initTRPC } from '@trpc/server'
import superjson from 'superjson'
import { ZodError, z } from 'zod'
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
/** Anyone may call it; later issues add authenticated and permission-checked procedures beside it. */
export const publicProcedure = t.procedure
