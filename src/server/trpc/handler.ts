import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import type { Database } from '../db/client'
import { RateLimitExceeded } from '../rate-limit'
import { createTrpcContext } from './context'
import { appRouter } from './root'

export const trpcEndpoint = '/api/trpc'

/** Answers a tRPC HTTP request (batched or single) against the given database. */
export function handleTrpcRequest(request: Request, db: Database): Promise<Response> {
  return fetchRequestHandler({
    endpoint: trpcEndpoint,
    req: request,
    router: appRouter,
    createContext: () => createTrpcContext({ db, request }),
    responseMeta({ errors }) {
      const limited = errors.find((error) => error.cause instanceof RateLimitExceeded)?.cause
      return limited instanceof RateLimitExceeded
        ? { headers: new Headers({ 'Retry-After': String(limited.retryAfterSeconds) }) }
        : {}
    },
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') console.error(`[trpc] ${path ?? '<no path>'}:`, error)
    },
  })
}
