import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { FastResponse } from 'srvx'
import { paraglideMiddleware } from './paraglide/server'
import { serverApps } from './server/apps.gen'
import { setAppRole } from './server/auth/app-admins'
import { apiKeyHeader, clientIpHeader, getAuth, getAuthRedis } from './server/auth/auth'
import { forgettingAccessOnChange } from './server/auth/organization-access'
import { readSession, rememberedSession, type SessionRead } from './server/auth/session-reads'
import { backUpNow, restoreFromBackup } from './server/backups/backups'
import { personalCacheControl, withCacheControl } from './server/cache-control'
import { clientClosedRequest, clientLeftBeforeAnswer, routedUntilAnswered } from './server/client-hang-up'
import { compressedAnswer, minimumBytes as compressionMinimumBytes } from './server/compression'
import { policyWithHashes, policyWithNonce, renderWithNonce } from './server/content-security-policy'
import type { DatabaseFault } from './server/db/client'
import { getDatabaseConnection, getDb } from './server/db/database'
import { getEnv } from './server/env'
import {
  databaseFaultNow,
  databaseFaultOfRequest,
  failureAnswer,
  logFailureOnce,
  noteFailure,
  trackingFaults,
  unavailableRetryAfterSeconds,
} from './server/failure-answers'
import { checkHealth } from './server/health'
import { jobOperator } from './server/jobs/operator'
import { endLiveStreams } from './server/live-updates'
import { redirectToLocalizedUrl } from './server/locale-redirect'
import {
  currentRequestId,
  log,
  loggablePath,
  requestIdFrom,
  requestIdHeader,
  requestIdOf,
  withRequestId,
} from './server/log'
import { metricsAnswer, metricsPath, recordRequest, recordRequestOnRoute, routeLabelOf } from './server/metrics'
import { namesAppHost, otherHostAnswer, otherHostWarning } from './server/one-address'
import { asCompleteAnswer, isCompleteAnswer, type KeptAnswer, PageCache } from './server/page-cache'
import { unreadableRequestTarget, unreadableTargetAnswer } from './server/request-path'
import { closeServerResources, ensureServerReady, startPromisedJobQueue } from './server/runtime'
import { securityHeaders, withSecurityHeaders } from './server/security-headers'
import { freshSiteSettings, getSiteSettings } from './server/settings'
import { inRequestSpan } from './server/tracing'
import { clientIpOf } from './server/trpc/context'
import { handleTrpcRequest, trpcEndpoint } from './server/trpc/handler'

const docsPagePath = /^\/(en|zh)\/docs(\/[\w\-/.()%]*)?$/
const landingPagePath = /^\/(en|zh)\/$/
const publicTextFiles = new Set(['/llms.txt', '/llms-full.txt', '/sitemap.xml', '/robots.txt'])
/**
 * Pages that look the same to every visitor, signed in or not (what is personal on them loads in the browser), and
 * change only with a build or a site setting: rendered once, then served from memory before routing or React.
 */
const publicPages = new PageCache(
  1000,
  (html) => (scriptPolicyApplies() ? [['Content-Security-Policy', policyWithHashes(html, scriptSources())]] : []),
  () => headersForEveryAnswer(),
)

/** The script policy is production's: the development server injects its own inline scripts for hot reload. */
function scriptPolicyApplies(): boolean {
  return getEnv().NODE_ENV === 'production'
}

function scriptSources() {
  const env = getEnv()
  return {
    googleOneTap: Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET),
    fromApps: serverApps.flatMap((app) => app.scriptSources?.() ?? []),
  }
}

function isPublicPage(url: URL): boolean {
  if (url.search) return false
  if (publicTextFiles.has(url.pathname) || landingPagePath.test(url.pathname)) return true
  if (serverApps.some((app) => app.publicPages?.test(url.pathname))) return true
  return docsPagePath.test(url.pathname) && !url.pathname.endsWith('.md')
}

function render(request: Request, options?: { sharedAnswer?: boolean }): Promise<Response> {
  // The router rewrites localized URLs itself, so the original request goes on (see paraglide's middleware docs).
  return routedUntilAnswered(request, (routed) => paraglideMiddleware(routed, () => handler.fetch(routed)), options)
}

/** A render for this request alone: its inline scripts carry a fresh nonce, and its policy names it. */
async function renderForRequest(request: Request): Promise<Response> {
  // A HEAD is rendered as its GET, so its headers (encoding, Vary, length, cache) are GET's; the server sends no body.
  const page = asGet(request)
  if (!scriptPolicyApplies()) return render(page)
  return renderWithNonce(async (nonce) =>
    withSecurityHeaders(await render(page), [['Content-Security-Policy', policyWithNonce(nonce, scriptSources())]]),
  )
}

let responseHeaders: [string, string][] | undefined
/** This deployment's security headers (HSTS only when the public URL is https). */
function headersForEveryAnswer(): [string, string][] {
  responseHeaders ??= securityHeaders({ https: getEnv().APP_URL.startsWith('https://') })
  return responseHeaders
}

/** Every answer on its way out, the app's and the static files', with this deployment's security headers. */
function finished(response: Response): Response {
  return withSecurityHeaders(response, headersForEveryAnswer())
}

/** TanStack Start's entry: it gives each request the scope that Start's request and cookie helpers read. */
const startEntry = createServerEntry({
  fetch(request) {
    const requestId = requestIdOf(request)
    return withRequestId(requestId, () => answerLoggedAndCounted(request, requestId, guardedAnswer))
  },
})

export default {
  fetch(request: Request): Response | Promise<Response> {
    if (!unreadableRequestTarget(request.url)) return startEntry.fetch(request)
    // Refused before Start sees it (it answers a path it cannot decode with an empty 400, unlogged and without the
    // security headers), and logged and counted like every other answer (src/server/request-path.ts).
    const requestId = requestIdOf(request)
    return withRequestId(requestId, () =>
      answerLoggedAndCounted(request, requestId, async () => unreadableTargetAnswer(request)),
    )
  },
}

/** Every request is logged once and counted in the metrics; its answer carries the id its log lines have. */
async function answerLoggedAndCounted(
  request: Request,
  requestId: string,
  answerOf: (request: Request) => Promise<Response>,
): Promise<Response> {
  const started = performance.now()
  const { pathname } = new URL(request.url)
  const response = await inRequestSpan(
    request,
    { 'url.path': loggablePath(pathname), 'hatch.request_id': requestId },
    () =>
      // Remembered access reads never outlive a change made on this server.
      trackingFaults(() =>
        forgettingAccessOnChange(request, async () => {
          const answer = await answerOf(request)
          if (isCompleteAnswer(answer)) return answer
          return finished(withCacheControl(request, await compressedAnswer(request, answer)))
        }),
      ),
    (answer) => {
      const seconds = (performance.now() - started) / 1000
      const status = clientLeftBeforeAnswer(request, answer.status) ? clientClosedRequest : answer.status
      recordRequest(request.method, pathname, status, seconds)
      log().info(
        { method: request.method, path: loggablePath(pathname), status, ms: Math.round(seconds * 1e4) / 10 },
        'request',
      )
      return `${request.method} ${routeLabelOf(pathname, status)}`
    },
  )
  return isCompleteAnswer(response) ? response : withSecurityHeaders(response, [[requestIdHeader, requestId]])
}

/**
 * The last guard before an answer leaves (issue 26): whatever was thrown ends as a generic 500, or a 503 with
 * Retry-After when the database could not serve, logged once; no message, query or stack of ours goes out.
 */
async function guardedAnswer(request: Request): Promise<Response> {
  let response: Response
  try {
    response = await answer(request)
  } catch (error) {
    if (error instanceof Response) return error
    const fault = noteFailure(error)
    logFailureOnce('server', error)
    return failureAnswer(request, fault)
  }
  return screenedFailure(
    request,
    response,
    databaseFaultOfRequest() ?? (response.status === 500 ? await databaseFaultNow() : undefined),
  )
}

/**
 * A 5xx built below (an auth endpoint's, an error page's): a 503 with Retry-After when this request met the
 * database down, and never a body of details. tRPC's and server functions' errors are already generic (their error
 * formatter and middleware), and a page's error screen shows only a generic message, so those keep their bodies.
 */
function screenedFailure(request: Request, response: Response, fault: DatabaseFault | undefined): Response {
  if (response.status < 500) return response
  const { pathname } = new URL(request.url)
  const isPage = (response.headers.get('content-type') ?? '').startsWith('text/html')
  if (pathname.startsWith(`${trpcEndpoint}/`) || pathname.startsWith('/_serverFn/') || isPage) {
    if (!fault || (response.status === 503 && response.headers.has('retry-after'))) return response
    const headers = new Headers(response.headers)
    headers.set('Retry-After', String(unavailableRetryAfterSeconds))
    return new Response(response.body, { status: 503, headers })
  }
  // A deliberate 502-504 of ours (a provider down, the health check) says only what its route chose to say.
  if (response.status !== 500 && !fault) return response
  if (response.status === 503 && response.headers.has('retry-after')) return response
  void response.body?.cancel()
  return failureAnswer(request, fault)
}

async function answer(request: Request): Promise<Response> {
  await ensureServerReady()
  const url = new URL(request.url)
  const onOtherHost = answerOnOtherHost(request, url)
  if (onOtherHost) return onOtherHost
  // Build assets are served from disk before this handler runs; one that is missing is simply missing.
  if (url.pathname.startsWith('/assets/')) return new Response('Not Found', { status: 404 })
  // HEAD too: a monitor's check of the endpoint answers as GET does, without the body.
  if (url.pathname === '/api/auth/get-session' && isReadMethod(request.method) && !request.headers.has(apiKeyHeader)) {
    return withoutBodyForHead(request, await getSessionAnswer(request, url))
  }
  if (url.pathname === metricsPath) return metricsAnswer(request)
  // The same answer as its file route (src/routes/api/health.ts), without the page router: its first request loads
  // every route's modules (about 0.6 s), which would otherwise stand between a new server and its first healthy answer.
  if (url.pathname === healthPath && isReadMethod(request.method)) {
    return withoutBodyForHead(request, await checkHealth(getDb(), getAuthRedis()))
  }
  // Product data (tRPC) needs no page routing, locale or render: straight to its handler.
  if (url.pathname.startsWith(`${trpcEndpoint}/`)) return handleTrpcRequest(request, getDb())
  const redirect = await redirectToLocalizedUrl(request, url.pathname)
  if (redirect) return redirect
  if (isReadMethod(request.method) && isPublicPage(url) && getEnv().NODE_ENV === 'production') {
    const { updatedAt } = await getSiteSettings(getDb())
    return publicPages.serve(
      `${url.pathname}|${updatedAt.getTime()}`,
      () => render(asGet(request), { sharedAnswer: true }),
      request,
    )
  }
  return renderForRequest(request)
}

const isReadMethod = (method: string) => method === 'GET' || method === 'HEAD'
const healthPath = '/api/health'

/**
 * What the first page needs and a health check does not, made ready ahead of it: the page router's modules (the route
 * tree and what its routes import; the router's handler imports the same modules, which load once) and Better Auth.
 * The production server calls this once its first answer has gone out.
 */
async function prepareForPages(): Promise<void> {
  getAuth()
  await Promise.all([import('./router'), import('./start')])
}

/** One address for every flow (src/server/one-address.ts): production sends visitors to APP_URL, development warns. */
function answerOnOtherHost(request: Request, url: URL): Response | undefined {
  const env = getEnv()
  if (env.NODE_ENV === 'production') return otherHostAnswer(request, env.APP_URL, url)
  const warning = otherHostWarning(request, env.APP_URL)
  if (warning) log().warn(warning)
  return undefined
}

/** The session check every page and API call makes: Better Auth's endpoint without its per-request router. */
async function getSessionAnswer(request: Request, url: URL): Promise<Response> {
  // Most checks come from a device whose session is remembered: answered before anything is copied or decoded.
  const remembered = url.search ? undefined : rememberedSession(getAuth(), request.headers)
  if (remembered) return sessionAnswer({ session: remembered, headers: null })
  const headers = new Headers(request.headers)
  headers.set(clientIpHeader, clientIpOf(request))
  if (!url.search) return sessionAnswer(await readSession(getAuth(), headers))
  return getAuth().api.getSession({ headers, query: Object.fromEntries(url.searchParams), asResponse: true })
}

/** HEAD answers with GET's status and headers, and no body (RFC 9110, 9.3.2). */
function withoutBodyForHead(request: Request, response: Response): Response {
  if (request.method !== 'HEAD' || !response.body) return response
  void response.body.cancel()
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/**
 * The GET a HEAD asks about: a kept page is rendered as for a GET whoever asks first, and a HEAD is answered with that
 * GET's headers (RFC 9110). Built from the URL and headers (the server's own request class cannot be copied by
 * `new Request`); the client's address, a field of that class, goes with it, and no signal does, as a kept page is
 * rendered whole whoever leaves.
 */
function asGet(request: Request): Request {
  if (request.method !== 'HEAD') return request
  const get = new Request(request.url, { headers: request.headers })
  return Object.assign(get, { ip: (request as Request & { ip?: string }).ip })
}

/** Better Auth's own headers on a session answer that sessionAnswer writes itself. */
const sessionAnswerOwnHeaders = new Set(['content-type', 'cache-control', 'pragma', 'content-length'])

/**
 * GET /api/auth/get-session's answer, as Better Auth writes it: the session as JSON (or null), never cached. It is
 * built with every header it leaves with, as a kept page is: copying it through Headers objects for the security
 * headers, the caching policy and a compression that never happens below a kilobyte was about a quarter of the CPU a
 * remembered session's answer took. A larger session is compressed on the way out like any other answer.
 */
function sessionAnswer({ session, headers }: SessionRead): Response {
  const json = sessionJson(session)
  const list: [string, string][] = [
    ['content-type', 'application/json'],
    ['cache-control', personalCacheControl],
    ['pragma', 'no-cache'],
  ]
  for (const [name, value] of headers ?? []) if (!sessionAnswerOwnHeaders.has(name)) list.push([name, value])
  if (Buffer.byteLength(json) >= compressionMinimumBytes) return new FastResponse(json, { headers: list })
  // As withSecurityHeaders does: a header Better Auth set itself is kept.
  const given = list.length > 3 ? new Set(list.map(([name]) => name)) : undefined
  for (const [name, value] of headersForEveryAnswer()) if (!given?.has(name)) list.push([name, value])
  const requestId = currentRequestId()
  if (requestId) list.push([requestIdHeader.toLowerCase(), requestId])
  return asCompleteAnswer(new FastResponse(json, { headers: list }))
}

/** A remembered session is one object for as long as it is remembered, so its JSON is written once. */
const sessionJsonOf = new WeakMap<object, string>()
function sessionJson(session: SessionRead['session']): string {
  if (!session) return 'null'
  let json = sessionJsonOf.get(session)
  if (json === undefined) {
    json = JSON.stringify(session)
    sessionJsonOf.set(session, json)
  }
  return json
}

/**
 * A kept public page's answer, for the production server to write before it builds a Request (scripts/serve.ts): the
 * landing page and the docs cost what writing their bytes costs, near a bare Node server's rate (issue 55). Only
 * what the full way would answer from memory too: a GET or HEAD without a query, on APP_URL's host, of a page
 * already kept under the current site settings; anything else (a first visit, another host, settings not read for a
 * while) is undefined and takes the full way. The request is logged and counted as every other.
 */
function keptPageAnswer(
  method: string,
  target: string,
  header: (name: string) => string | undefined,
): KeptAnswer | undefined {
  if ((method !== 'GET' && method !== 'HEAD') || target.includes('?') || !isOnAppHost(header)) {
    return undefined
  }
  const settings = freshSiteSettings(getDb())
  if (!settings) return undefined
  const started = performance.now()
  // The request target is matched as it came: a kept key is a parsed URL's path, so only a target that parses to
  // itself can match one (a `..`, a backslash or an absolute URL never does).
  const kept = publicPages.keptAnswer(
    `${target}|${settings.updatedAt.getTime()}`,
    method,
    header('accept-encoding'),
    header('if-none-match'),
  )
  if (!kept) return undefined
  const requestId = requestIdFrom(header(requestIdHeader.toLowerCase()))
  const ms = Math.round((performance.now() - started) * 10) / 10
  const { path, route } = keptPathLabels(target)
  recordRequestOnRoute(method, route, kept.status, ms / 1000)
  // The id as a field, as the log's mixin would write it from the request's scope: the same line without the scope.
  // `kept` tells this lane's lines from the full way's, so a lane that stopped answering shows (conformance-http).
  log().info({ requestId, method, path, status: kept.status, ms, kept: true }, 'request')
  return {
    ...kept,
    headers: [...kept.headers, ['x-cache', 'hit'], [requestIdHeader.toLowerCase(), requestId]],
  }
}

/**
 * A kept page's path as the log writes it and its route as the metrics count it, worked out once per page: a kept
 * page's path is one of at most the page cache's entries, and both were a tenth of what a kept page cost.
 */
const keptPaths = new Map<string, { path: string; route: string }>()
function keptPathLabels(target: string): { path: string; route: string } {
  let labels = keptPaths.get(target)
  if (!labels) {
    if (keptPaths.size >= 2 * publicPages.maxEntries) keptPaths.clear()
    labels = { path: loggablePath(target), route: routeLabelOf(target, 200) }
    keptPaths.set(target, labels)
  }
  return labels
}

/** Only the production server has the kept pages' lane; development answers every host (one-address.ts). */
function isOnAppHost(header: (name: string) => string | undefined): boolean {
  const env = getEnv()
  return env.NODE_ENV === 'production' && namesAppHost(header('host'), header('x-forwarded-host'), env.APP_URL)
}

/** Used by the production server (scripts/serve.ts) to start and stop what the app holds. */
export const lifecycle = {
  keptPageAnswer,
  ensureServerReady,
  startPromisedJobQueue,
  prepareForPages,
  closeServerResources,
  endLiveStreams,
  getEnv,
  finished,
  log,
}

/** Operator tasks run from the command line against the app's database (scripts/admin.ts, scripts/seed.ts). */
export const operatorTasks = {
  setAppRole: (email: string, role: 'admin' | 'user') => setAppRole(getDb(), email, role),
  /** What each installed app can seed (`npm run db:seed -- --<name> <count>`), by name. */
  seedNames: () => serverApps.flatMap((app) => Object.keys(app.seeds ?? {})),
  seed: async (name: string, count: number, organizationSlug?: string) => {
    const seed = serverApps.find((app) => app.seeds && Object.hasOwn(app.seeds, name))?.seeds?.[name]
    if (!seed) throw new Error(`No installed app seeds "${name}".`)
    return (await seed())(getDb(), count, organizationSlug)
  },
  /** An installed app's own task (its server manifest's `operatorTasks`), such as billing's `replay`. */
  appTask: async (app: string, name: string, ...args: string[]): Promise<unknown> => {
    const task = serverApps.find((candidate) => candidate.name === app)?.operatorTasks?.[name]
    if (!task) throw new Error(`The ${app} app has no task "${name}".`)
    return (await task())(getDb(), ...args)
  },
  jobs: () => jobOperator(getDatabaseConnection()),
  /** `npm run db:backup`, where no server holds the embedded database (or on PostgreSQL): taken by this process. */
  backup: async (destination?: string) => {
    try {
      return await backUpNow('command', { destination })
    } finally {
      await getDatabaseConnection().close()
    }
  },
  /** `npm run db:restore <backup>`: into an empty database unless `force`. */
  restore: (source: string, force: boolean) => restoreFromBackup(source, { force }),
  dataDir: () => getEnv().DATA_DIR,
  embedded: () => !getEnv().DATABASE_URL,
}
