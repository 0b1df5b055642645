import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { trpcBatchCallsMax } from '#/lib/trpc-batch'
import { m } from '#/paraglide/messages'
import { type Database, databaseFaultOf } from '../db/client'
import { getEnv } from '../env'
import { unavailableRetryAfterSeconds } from '../failure-answers'
import { log } from '../log'
import { RateLimitExceeded } from '../rate-limit'
import { localeOfRequest } from '../request-locale'
import { changeRefusal, changeRefusalResponse } from './change-requests'
import { createTrpcContext } from './context'
import { appRouter } from './root'

export const trpcEndpoint = '/api/trpc'

/** Answers a tRPC HTTP request (batched or single) against the given database. */
export function handleTrpcRequest(request: Request, db: Database): Promise<Response> {
  const refusal = changeRefusal(request, getEnv().trustedOrigins)
  if (refusal) return Promise.resolve(changeRefusalResponse(refusal))
  if (batchCallsOf(request) > trpcBatchCallsMax) return Promise.resolve(batchTooLargeResponse(request))
  return fetchRequestHandler({
    endpoint: trpcEndpoint,
    req: request,
    // Said again to tRPC itself, in case a batch names its procedures in a way the count above does not read.
    maxBatchSize: trpcBatchCallsMax,
    router: appRouter,
    createContext: ({ resHeaders }) => createTrpcContext({ db, request, responseHeaders: resHeaders }),
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

/** How many procedure calls a request names: `/api/trpc/a,b,c?batch=1` is three, anything else one. */
function batchCallsOf(request: Request): number {
  const url = new URL(request.url)
  if (url.searchParams.get('batch') !== '1') return 1
  // The separator may arrive percent-encoded; tRPC decodes the path before it splits it.
  return url.pathname.slice(trpcEndpoint.length + 1).split(/,|%2C/i).length
}

/** A batch over the limit, refused before any call runs: tRPC's error shape, worded in the caller's language. */
function batchTooLargeResponse(request: Request): Response {
  const limit = String(trpcBatchCallsMax)
  return Response.json(
    {
      error: {
        json: {
          message: m.error_code_BATCH_TOO_LARGE({ limit }, { locale: localeOfRequest(request) }),
          code: -32600,
          data: { code: 'BAD_REQUEST', httpStatus: 400, appCode: 'BATCH_TOO_LARGE', params: { limit } },
        },
      },
    },
    { status: 400, headers: { 'Cache-Control': 'private, no-store' } },
  )
}
