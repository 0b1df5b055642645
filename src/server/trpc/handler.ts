import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { type Database, databaseFaultOf } from '../db/client'
import { getEnv } from '../env'
import { unavailableRetryAfterSeconds } from '../failure-answers'
import { log } from '../log'
import { RateLimitExceeded } from '../rate-limit'
import { changeRefusal, changeRefusalResponse } from './change-requests'
import { createTrpcContext } from './context'
import { appRouter } from './root'

export const trpcEndpoint = '/api/trpc'

/** Answers a tRPC HTTP request (batched or single) against the given database. */
export function handleTrpcRequest(request: Request, db: Database): Promise<Response> {
  const refusal = changeRefusal(request, getEnv().trustedOrigins)
  if (refusal) return Promise.resolve(changeRefusalResponse(refusal))
  return fetchRequestHandler({
    endpoint: trpcEndpoint,
    req: request,
    router: appRouter,
    createContext: () => createTrpcContext({ db, request }),
    responseMeta({ errors }) {
      const limited = errors.find((error) => error.cause instanceof RateLimitExceeded)?.cause
      if (limited instanceof RateLimitExceeded) {
        return { headers: new Headers({ 'Retry-After': String(limited.retryAfterSeconds) }) }
      }
      // The error formatter made these 503s; the client (or a proxy) learns when to try again.
      return errors.some((error) => databaseFaultOf(error))
        ? { headers: new Headers({ 'Retry-After': String(unavailableRetryAfterSeconds) }) }
        : {}
    },
    onError({ error, path }) {
      // Printed without the values a failed query carried (a session token, say): see loggable-error.ts.
      if (error.code === 'INTERNAL_SERVER_ERROR') log().error({ err: error, procedure: path }, 'a procedure failed')
    },
  })
}
