import type { authForDatabase } from '../auth/auth'
import type { Database } from '../db/client'

export interface TrpcContext {
  db: Database
  headers: Headers
  /** The caller's address (the socket peer, or X-Forwarded-For when TRUST_PROXY allows); for rate limits. */
  clientIp: string
  /** GET carries queries, POST mutations; it names the kind of a procedure that does not exist. */
  method: string
  /** The request's origin as this server sees it (the forwarded one when TRUST_PROXY allows), for Console → System. */
  requestOrigin?: string
  /**
   * A session the server itself checked for this request moments ago (the MCP endpoint's API key, the assistant's
   * cookie), for procedures it calls in-process: they skip a second check. Never set from anything a client sends.
   */
  verifiedSession?: VerifiedSession
  /**
   * Headers added to the answer of a request to /api/trpc (tRPC's own). Absent while a page renders, where Better
   * Auth's TanStack Start hook writes its cookies into the page's answer itself.
   */
  responseHeaders?: Headers
}

/** A session as Better Auth's getSession answers it. */
export type VerifiedSession = NonNullable<Awaited<ReturnType<ReturnType<typeof authForDatabase>['api']['getSession']>>>

/** srvx puts the client address on the request it hands to the app. */
export function clientIpOf(request: Request): string {
  const ip = (request as Request & { ip?: string }).ip
  return ip && ip.length > 0 ? ip : 'unknown'
}

export function createTrpcContext(options: { db: Database; request: Request; responseHeaders?: Headers }): TrpcContext {
  return {
    db: options.db,
    headers: options.request.headers,
    clientIp: clientIpOf(options.request),
    method: options.request.method,
    requestOrigin: new URL(options.request.url).origin,
    responseHeaders: options.responseHeaders,
  }
}
