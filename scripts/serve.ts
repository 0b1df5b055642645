import cluster from 'node:cluster'
import { Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { enableCompileCache } from 'node:module'
import { pathToFileURL } from 'node:url'
import { FastResponse, type ServerMiddleware, serve } from 'srvx'
import { staticMiddleware } from 'srvx/static'
import { listeningMessage } from '../src/server/cluster-messages.ts'
import type { KeptAnswer } from '../src/server/page-cache.ts'
import { answerWithinBodyLimit } from '../src/server/request-body.ts'
import { clientDir, serverBundle } from './project.ts'
import { closingAllowanceMs } from './shutdown-deadline.ts'
import { loadStaticFiles, type StaticFile, staticAnswer } from './static-files.ts'
import { startTelemetry } from './telemetry.ts'

interface AppBundle {
  default: { fetch(request: Request): Response | Promise<Response> }
  lifecycle: {
    keptPageAnswer(method: string, target: string, header: (name: string) => string | undefined): KeptAnswer | undefined
    ensureServerReady(options: { jobs: 'later' }): Promise<void>
    startPromisedJobQueue(): Promise<void>
    prepareForPages(): Promise<void>
    closeServerResources(): Promise<void>
    endLiveStreams(): void
    finished(response: Response): Response
    log(): Pick<Console, 'info' | 'warn' | 'error'>
    getEnv(): {
      PORT: number
      HOST: string
      APP_URL: string
      SHUTDOWN_TIMEOUT_MS: number
      TRUST_PROXY: 'false' | 'true' | 'loopback'
    }
  }
}

/**
 * The built client's files, answered from memory (scripts/static-files.ts) before the app sees the request. Only
 * paths that name a file (a dot in the last segment) are looked up, so page requests pay nothing; a file too large to
 * hold is read from the disk. They are read while the server starts listening and answering (a health check needs
 * none of them); a file asked for before they are all in memory waits for them, so every answer is the same.
 */
function staticFiles(finish: (response: Response) => Response): {
  middleware: ServerMiddleware
  loading: Promise<unknown>
} {
  let files: Map<string, StaticFile> | undefined
  const loading = loadStaticFiles(clientDir).then(
    (loaded) => {
      files = loaded
      return loaded
    },
    (error: unknown) => {
      // As when the build cannot be read before listening: the server stops rather than answer without its files.
      console.error(error)
      console.error('The server could not read the built files and stopped.')
      process.exit(1)
    },
  )
  // The security headers every answer carries (src/server/security-headers.ts), worked out once.
  const commonHeaders = Object.fromEntries(finish(new Response(null)).headers)
  const fromDisk = staticMiddleware({ dir: clientDir, maxAge: 3600 })
  const finished = async (answer: Response | Promise<Response>) => finish(await answer)
  const answerFrom = (
    loaded: Map<string, StaticFile>,
    pathname: string,
    ...[request, next]: Parameters<ServerMiddleware>
  ): Response | Promise<Response> => {
    const file = request.method === 'GET' || request.method === 'HEAD' ? loaded.get(pathname) : undefined
    if (!file) return finished(fromDisk(request, next))
    const { status, headers, body } = staticAnswer(file, request, commonHeaders)
    return new FastResponse(body, { status, statusText: status === 200 ? 'OK' : 'Not Modified', headers })
  }
  const middleware: ServerMiddleware = (request, next) => {
    const pathname = pathnameOf(request.url)
    // API paths name procedures, not files (`/api/trpc/books.list`).
    if (!pathname.slice(pathname.lastIndexOf('/')).includes('.') || pathname.startsWith('/api/')) return next()
    if (!files) return loading.then((loaded) => answerFrom(loaded, pathname, request, next))
    return answerFrom(files, pathname, request, next)
  }
  return { middleware, loading }
}

/** The path of an absolute URL, without parsing all of it (this runs for every request). */
function pathnameOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const end = url.search(/[?#]/)
  return end < 0 ? url.slice(start) : url.slice(start, end)
}

/**
 * The upload routes take files up to the largest file an installed app's plan allows (the files app's 25 MB); each
 * route checks its own limit.
 */
const uploadBodyBytesMax = 26 * 1024 * 1024
/** Every other body: requestBodyBytesMax in src/lib/request-body-limit.ts (tRPC, and the books' import dialog, refuse larger first). */
const bodyBytesMax = 1024 * 1024

/**
 * Once shutdown has begun, every answer says `Connection: close`, so a client does not send its next request on a
 * kept-alive connection of a server that has stopped accepting new ones.
 */
function closeConnectionsWhen(isStopping: () => boolean): ServerMiddleware {
  return async (_request, next) => {
    const response = await next()
    if (!isStopping()) return response
    try {
      response.headers.set('Connection', 'close')
      return response
    } catch {
      // Immutable headers (a fetched or redirect answer): send a copy.
      const headers = new Headers(response.headers)
      headers.set('Connection', 'close')
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
    }
  }
}

/**
 * How long an idle connection stays open: longer than the proxies in front keep theirs (nginx's upstream
 * keepalive_timeout, and most cloud load balancers' idle timeout, are 60 s). With Node's default of 5 s, a proxy can
 * send a request on a connection the server is closing at that moment, and the request fails: a 502, or a retry where
 * the proxy is allowed one. The MCP SDK's client met it in CI under load ("other side closed"). Shutdown still closes
 * idle connections at once (Node's server.close).
 */
const idleConnectionMs = 65_000

function keepIdleConnectionsOpen(server: ReturnType<typeof serve>): void {
  const nodeServer = server.node?.server
  // An HTTP/1.1 server (srvx serves HTTP/2 only with TLS, which Hatch leaves to the proxy).
  if (!(nodeServer instanceof HttpServer)) return
  nodeServer.keepAliveTimeout = idleConnectionMs
  // A request's headers may take as long as a connection may stay idle before them, and a little more.
  nodeServer.headersTimeout = idleConnectionMs + 1_000
}

/**
 * Kept public pages (the landing page, the docs) are answered from the request as Node parsed it, before srvx builds
 * a Request and the app's Response goes back through it: that conversion, the middleware and the request's scopes
 * were most of what a kept page cost, which kept it near a fifth of nginx's rate (issue 55). With tracing on, every
 * request takes the full way, so each has its span; once shutdown has begun too, so each says Connection: close.
 */
function answerKeptPagesFirst(
  server: ReturnType<typeof serve>,
  keptPageAnswer: AppBundle['lifecycle']['keptPageAnswer'],
  isStopping: () => boolean,
): void {
  const nodeServer = server.node?.server
  const fullWay = server.node?.handler
  if (!nodeServer || !fullWay) return
  nodeServer.removeAllListeners('request')
  nodeServer.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const header = (name: string) => {
      const value = request.headers[name]
      return Array.isArray(value) ? value.join(', ') : value
    }
    const kept = isStopping() ? undefined : keptPageAnswer(request.method ?? '', request.url ?? '', header)
    if (!kept) return fullWay(request, response)
    response.writeHead(kept.status, kept.headers.flat())
    response.end(kept.body)
  })
}

/** How long a server that has had no request yet waits before it starts its job queue. */
const jobQueueStartDelayMs = 1_000
/** How long after a failed start of the job queue it is tried again. */
const jobQueueRetryMs = 5_000

/** How often a stopping server looks again at the answers it is waiting for. */
const settledCheckMs = 50

/** The app's answers still being worked out, whether or not their client is still connected. */
class RequestsInFlight {
  #running = new Set<Promise<Response>>()

  /**
   * Runs the app for one request and keeps its answer until it settles. The app may answer at once (a `Response`,
   * not a promise) or throw: either is an answer like any other, never one that stays tracked for ever.
   */
  track(work: () => Response | Promise<Response>): Promise<Response> {
    const answer = (async () => work())()
    this.#running.add(answer)
    const forget = () => this.#running.delete(answer)
    answer.then(forget, forget)
    return answer
  }

  /**
   * Resolves once every tracked answer has settled, or at `deadline` (a `Date.now()` time) with those still running
   * left behind. It waits on a timer between looks, so the event loop (the shutdown's own timers) always runs.
   */
  async settled(deadline: number): Promise<void> {
    while (this.#running.size > 0 && Date.now() < deadline) {
      const wait = Math.max(0, Math.min(settledCheckMs, deadline - Date.now()))
      await Promise.race([Promise.allSettled([...this.#running]), new Promise((resolve) => setTimeout(resolve, wait))])
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
}

/**
 * Serves the built app: validates the environment and applies migrations before listening, and on SIGTERM/SIGINT
 * stops accepting connections, lets in-flight requests finish, closes the database and exits 0.
 */
export async function startProductionServer(options: { afterStop?: () => Promise<void> } = {}): Promise<void> {
  // Bundled dependencies still choose their build at run time (docs/decisions/017): without this React renders
  // with its development build, several times slower.
  process.env.NODE_ENV ??= 'production'
  // V8 keeps the compiled app and its dependencies on disk (in the system's temporary folder), so a restart skips
  // most of the parsing and compiling: a shorter cold start.
  enableCompileCache()
  // Before the app is loaded: the instrumentations patch its libraries as they load (scripts/telemetry.ts).
  const telemetry = await startTelemetry(process.env)
  const app: AppBundle = await import(pathToFileURL(serverBundle).href)
  try {
    await app.lifecycle.ensureServerReady({ jobs: 'later' })
  } catch (error) {
    console.error(error instanceof Error && error.name === 'EnvError' ? error.message : error)
    console.error('The server did not start.')
    process.exit(1)
  }
  const env = app.lifecycle.getEnv()
  const log = app.lifecycle.log()
  const answering = new RequestsInFlight()
  let stopping = false
  // The job queue starts once the first answer has gone out, or after a second without requests: its start would
  // otherwise run between the first request's steps on the embedded database's one thread (docs/decisions/030). A
  // start that fails (the database away for a moment) is tried again; jobs sent meanwhile are left for later.
  let jobQueueStart: Promise<void> | undefined
  const startJobQueue = (afterFailure = false) => {
    if (stopping) return
    jobQueueStart ??= app.lifecycle.startPromisedJobQueue().then(
      () => {
        if (afterFailure) log.info('the job queue has started')
      },
      (error: unknown) => {
        log.warn({ err: error }, `the job queue did not start; trying again in ${jobQueueRetryMs / 1000} s`)
        setTimeout(() => {
          jobQueueStart = undefined
          startJobQueue(true)
        }, jobQueueRetryMs).unref()
      },
    )
  }
  // What pages need (the page router's modules, Better Auth) is made ready after the first answer too, as a health
  // check needs none of it, and before the job queue starts, as the next request is likelier a page than a job.
  let pagesPrepared: Promise<void> | undefined
  const prepareForPages = () => {
    pagesPrepared ??= app.lifecycle.prepareForPages().catch((error: unknown) => {
      // The first page's request does it again, and answers with what failed.
      log.warn({ err: error }, 'the server could not prepare for its first page ahead of it')
    })
  }
  const afterFirstAnswer = () => {
    if (stopping) return
    prepareForPages()
    startJobQueue()
  }
  const clientFiles = staticFiles(app.lifecycle.finished)
  const server = serve({
    fetch: (request) => {
      // Uploads are held to their plans' limits (they check each plan's own) and to srvx's, the largest plan's.
      const answer = pathnameOf(request.url).startsWith('/api/uploads/')
        ? answering.track(() => app.default.fetch(request))
        : answering.track(() =>
            answerWithinBodyLimit(
              request,
              bodyBytesMax,
              (limited) => app.default.fetch(limited),
              app.lifecycle.finished,
            ),
          )
      if (!jobQueueStart) answer.finally(() => setImmediate(afterFirstAnswer)).catch(() => undefined)
      return answer
    },
    port: env.PORT,
    hostname: env.HOST,
    middleware: [closeConnectionsWhen(() => stopping), clientFiles.middleware],
    gracefulShutdown: false,
    // Client IPs (rate limits) come from X-Forwarded-For only when the operator says a proxy sets it.
    trustProxy: env.TRUST_PROXY === 'loopback' ? 'loopback' : env.TRUST_PROXY === 'true',
    // Uploads' limit; answerWithinBodyLimit (src/server/request-body.ts) holds every other route to 1 MiB.
    maxRequestBodySize: uploadBodyBytesMax,
    // One of several processes (WEB_CONCURRENCY, scripts/cluster.ts) shares the port the first one opened; a lone
    // server keeps it to itself, so a second `npm start` on the same port fails instead of sharing it unnoticed.
    reusePort: cluster.isWorker,
    silent: true,
    // Listens below, once the kept pages' lane is in front of srvx's handler.
    manual: true,
  })
  if (!telemetry) answerKeptPagesFirst(server, app.lifecycle.keptPageAnswer, () => stopping)
  keepIdleConnectionsOpen(server)
  await server.serve()
  const address = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST
  log.info(`Hatch is listening on http://${address}:${env.PORT} (public URL ${env.APP_URL})`)
  if (cluster.isWorker) process.send?.(listeningMessage)
  setTimeout(afterFirstAnswer, jobQueueStartDelayMs).unref()

  const stop = async (reason: string) => {
    if (stopping) return
    stopping = true
    log.info(`${reason}: finishing in-flight requests…`)
    // Open notification streams never finish on their own: they end now, and their pages reconnect elsewhere.
    app.lifecycle.endLiveStreams()
    const deadline = Date.now() + env.SHUTDOWN_TIMEOUT_MS
    // Whatever hangs (a request, a job, the database), the process ends: a deploy waits for it.
    setTimeout(() => {
      log.error(`The shutdown did not finish within ${env.SHUTDOWN_TIMEOUT_MS + closingAllowanceMs} ms; exiting.`)
      process.exit(1)
    }, env.SHUTDOWN_TIMEOUT_MS + closingAllowanceMs)
    const untilDeadline = new Promise<void>((resolve) => setTimeout(resolve, env.SHUTDOWN_TIMEOUT_MS))
    const force = setTimeout(() => {
      log.error(`Requests still running after ${env.SHUTDOWN_TIMEOUT_MS} ms; closing their connections.`)
      void server.close(true)
    }, env.SHUTDOWN_TIMEOUT_MS)
    force.unref()
    await Promise.race([server.close(), untilDeadline])
    // A client that hung up leaves its request running here after its connection closed: it finishes (or the
    // shutdown timeout ends it) before the database it writes to is closed.
    await answering.settled(deadline)
    // A resource that fails to close is reported and the exit code says so; it never ends the process halfway.
    const closed = await app.lifecycle.closeServerResources().then(
      () => true,
      (error: unknown) => {
        log.error({ err: error }, 'closing the database or Redis failed during shutdown')
        return false
      },
    )
    // The last spans are sent before the process ends.
    await telemetry?.shutdown().catch(() => undefined)
    // A server stopped as soon as it answered is still loading modules and files: Node 24 could hang for ever in
    // `process.exit` while V8 compiled the new code on another thread (the thread waited for a collection the exiting
    // main thread never ran). Start-up's work finishes first, within the shutdown's deadline.
    await Promise.race([Promise.allSettled([pagesPrepared, clientFiles.loading]), untilDeadline])
    await options.afterStop?.()
    log.info('Stopped.')
    process.exit(closed ? 0 : 1)
  }
  process.on('SIGTERM', () => void stop('SIGTERM received'))
  process.on('SIGINT', () => void stop('SIGINT received'))
}
