import { AsyncLocalStorage } from 'node:async_hooks'
import { m } from '#/paraglide/messages'
import { type DatabaseFault, databaseFaultOf, pingDatabase } from './db/client'
import { getDb } from './db/database'
import { log } from './log'
import { localeOfRequest } from './request-locale'

/**
 * The one exit for what went wrong on the server (issue 26): whatever failed, the answer says only that it failed
 * (500) or that the service is unavailable for a moment (503 with Retry-After), in the visitor's language. The
 * error itself goes to the server's log, once. Query text, parameters, stacks and internal messages never leave.
 */

/** Seconds a client is asked to wait when the database cannot serve; a restart or a failover takes about as long. */
export const unavailableRetryAfterSeconds = 5

/** What this request has met so far: a database fault seen anywhere below turns its 5xx answer into a 503. */
interface RequestFaults {
  databaseFault?: DatabaseFault
  /** The first unexpected error logged for this request, so the exit does not log it a second time. */
  logged?: unknown
}

const requestFaults = new AsyncLocalStorage<RequestFaults>()

/** Runs one request's handling with its own record of faults (the entry wraps every request in it). */
export function trackingFaults<T>(work: () => Promise<T>): Promise<T> {
  return requestFaults.run({}, work)
}

/**
 * Records a failure met while answering this request and says which database fault it is, if any. The tRPC error
 * formatter, Better Auth's error hook and the entry all report here, so a 500 built deep down (an error screen, an
 * auth endpoint's empty 500) still leaves as a 503 when the database was the cause.
 */
export function noteFailure(error: unknown): DatabaseFault | undefined {
  const fault = databaseFaultOf(error)
  const faults = requestFaults.getStore()
  if (fault && faults && !faults.databaseFault) faults.databaseFault = fault
  return fault
}

/** The database fault this request met, if any. */
export function databaseFaultOfRequest(): DatabaseFault | undefined {
  return requestFaults.getStore()?.databaseFault
}

/** Logs an unexpected error of this request once, whichever exit sees it first. */
export function logFailureOnce(where: string, error: unknown): void {
  const faults = requestFaults.getStore()
  if (faults) {
    if (faults.logged === error) return
    faults.logged = error
  }
  // Without the values a failed query carried (a session token, a verification value): see loggable-error.ts.
  log().error({ err: error, where }, 'a request failed')
}

/** The app code a client translates (`error_code_{code}`) for each kind of failure. */
export function failureCodeOf(fault: DatabaseFault | undefined): string {
  if (fault === 'storage-full') return 'STORAGE_FULL'
  return fault ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR'
}

function failureText(code: string, locale: ReturnType<typeof localeOfRequest>): string {
  if (code === 'STORAGE_FULL') return m.error_code_STORAGE_FULL({}, { locale })
  if (code === 'SERVICE_UNAVAILABLE') return m.error_code_SERVICE_UNAVAILABLE({}, { locale })
  return m.error_code_INTERNAL_SERVER_ERROR({}, { locale })
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/**
 * The generic answer for a failed request: 503 with Retry-After when the database cannot serve, else 500. A browser
 * asking for a page gets a small page in its language; everyone else JSON with a code to translate and the text.
 */
export function failureAnswer(request: Request, fault: DatabaseFault | undefined): Response {
  const code = failureCodeOf(fault)
  const locale = localeOfRequest(request)
  const message = failureText(code, locale)
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  if (fault) headers.set('Retry-After', String(unavailableRetryAfterSeconds))
  const status = fault ? 503 : 500
  const wantsPage = request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html')
  if (!wantsPage) return Response.json({ code, message }, { status, headers })
  headers.set('Content-Type', 'text/html; charset=utf-8')
  const title = escapeHtml(m.error_title({}, { locale }))
  const page = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1.5rem;text-align:center"><main id="main"><h1>${title}</h1><p>${escapeHtml(message)}</p><p><a href="">${escapeHtml(m.error_try_again({}, { locale }))}</a></p></main></body></html>`
  return new Response(page, { status, headers })
}

/**
 * Better Auth's `onAPIError.onError`: an endpoint's unexpected error (not a refusal it worded itself) is logged once
 * and noted, so the exit answers 503 when the database was the cause. Better Auth then answers an empty 500.
 */
export function noteAuthFailure(error: unknown): void {
  const status = (error as { statusCode?: unknown } | null)?.statusCode
  if (typeof status === 'number' && status < 500) return
  noteFailure(error)
  logFailureOnce('auth', error)
}

/** How long the exit's own look at the database may take, on top of the request's own wait (3 s to connect). */
const exitPingTimeoutMs = 1_500

/**
 * Whether the database answers right now, for a 500 whose cause a library kept to itself (Better Auth answers an
 * empty 500 for an error in its rate limiter): if it does not, the answer is a 503 like any other outage's.
 */
export async function databaseFaultNow(): Promise<DatabaseFault | undefined> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), exitPingTimeoutMs)
  })
  try {
    const outcome = await Promise.race([pingDatabase(getDb()).then(() => 'ok' as const), timeout])
    return outcome === 'ok' ? undefined : 'unavailable'
  } catch (error) {
    return databaseFaultOf(error) ?? 'unavailable'
  } finally {
    clearTimeout(timer)
  }
}
