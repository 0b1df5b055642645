import cluster from 'node:cluster'
import { enableCompileCache } from 'node:module'
import { pathToFileURL } from 'node:url'
import { FastResponse, type ServerMiddleware, serve } from 'srvx'
import { staticMiddleware } from 'srvx/static'
import { listeningMessage } from '../src/server/cluster-messages.ts'
import { clientDir, serverBundle } from './project.ts'
import { loadStaticFiles, staticAnswer } from './static-files.ts'
import { startTelemetry } from './telemetry.ts'

interface AppBundle {
  default: { fetch(request: Request): Promise<Response> }
  lifecycle: {
    ensureServerReady(options: { jobs: 'later' }): Promise<void>
    startPromisedJobQueue(): Promise<void>
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
 * hold is read from the disk.
 */
function staticFiles(finish: (response: Response) => Response): ServerMiddleware {
  const files = loadStaticFiles(clientDir)
  // The security headers every answer carries (src/server/security-headers.ts), worked out once.
  const commonHeaders = Object.fromEntries(finish(new Response(null)).headers)
  const fromDisk = staticMiddleware({ dir: clientDir, maxAge: 3600 })
  const finished = async (answer: Response | Promise<Response>) => finish(await answer)
  return (request, next) => {
    const pathname = pathnameOf(request.url)
    // API paths name procedures, not files (`/api/trpc/books.list`).
    if (!pathname.slice(pathname.lastIndexOf('/')).includes('.') || pathname.startsWith('/api/')) return next()
    const file = request.method === 'GET' || request.method === 'HEAD' ? files.get(pathname) : undefined
    if (!file) return finished(fromDisk(request, next))
    const { status, headers, body } = staticAnswer(file, request, commonHeaders)
    return new FastResponse(body, { status, statusText: status === 200 ? 'OK' : 'Not Modified', headers })
  }
}

/** The path of an absolute URL, without parsing all of it (this runs for every request). */
function pathnameOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const end = url.search(/[?#]/)
  return end < 0 ? url.slice(start) : url.slice(start, end)
}

/** The upload routes take files up to the largest plan's file size; they check each plan's own limit. */
const uploadBodyBytesMax = 26 * 1024 * 1024
/** Every other body: requestBodyBytesMax in src/lib/book-rules.ts (the import dialog and tRPC refuse larger first). */
const bodyBytesMax = 1024 * 1024

/**
 * Bodies past 1 MiB are refused outside `/api/uploads/` (the server's own limit is the uploads' larger one): a
 * declared length at once with 413, a streamed body when it passes the limit.
 */
function withBodyLimit(request: Request): Request | Response {
  if (pathnameOf(request.url).startsWith('/api/uploads/')) return request
  const declared = request.headers.get('content-length')
  if (declared !== null) {
    return Number(declared) > bodyBytesMax
      ? Response.json({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' }, { status: 413 })
      : request
  }
  // Without a declared length, only a chunked request has a body (a GET's or HEAD's is never read).
  if (!request.headers.get('transfer-encoding') || request.method === 'GET' || request.method === 'HEAD') return request
  let size = 0
  const counted = request.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength
        if (size > bodyBytesMax) controller.error(new Error('The request body is too large'))
        else controller.enqueue(chunk)
      },
    }),
  )
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body: counted,
    duplex: 'half',
  } as RequestInit)
}

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

/** How long a server that has had no request yet waits before it starts its job queue. */
const jobQueueStartDelayMs = 1_000
/** How long after a failed start of the job queue it is tried again. */
const jobQueueRetryMs = 5_000

/** The app's answers still being worked out, whether or not their client is still connected. */
class RequestsInFlight {
  #running = new Set<Promise<Response>>()

  track(answer: Promise<Response>): Promise<Response> {
    this.#running.add(answer)
    const forget = () => this.#running.delete(answer)
    answer.then(forget, forget)
    return answer
  }

  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running])
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
  const server = serve({
    fetch: (request) => {
      const limited = withBodyLimit(request)
      if (limited instanceof Response) return limited
      const answer = answering.track(app.default.fetch(limited))
      if (!jobQueueStart) answer.finally(() => setImmediate(() => startJobQueue())).catch(() => undefined)
      return answer
    },
    port: env.PORT,
    hostname: env.HOST,
    middleware: [closeConnectionsWhen(() => stopping), staticFiles(app.lifecycle.finished)],
    gracefulShutdown: false,
    // Client IPs (rate limits) come from X-Forwarded-For only when the operator says a proxy sets it.
    trustProxy: env.TRUST_PROXY === 'loopback' ? 'loopback' : env.TRUST_PROXY === 'true',
    // Uploads' limit; withBodyLimit holds every other route to 1 MiB.
    maxRequestBodySize: uploadBodyBytesMax,
    // One of several processes (WEB_CONCURRENCY, scripts/cluster.ts) shares the port the first one opened; a lone
    // server keeps it to itself, so a second `npm start` on the same port fails instead of sharing it unnoticed.
    reusePort: cluster.isWorker,
    silent: true,
  })
  await server.ready()
  const address = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST
  log.info(`Hatch is listening on http://${address}:${env.PORT} (public URL ${env.APP_URL})`)
  if (cluster.isWorker) process.send?.(listeningMessage)
  setTimeout(() => startJobQueue(), jobQueueStartDelayMs).unref()

  const stop = async (reason: string) => {
    if (stopping) return
    stopping = true
    log.info(`${reason}: finishing in-flight requests…`)
    // Open notification streams never finish on their own: they end now, and their pages reconnect elsewhere.
    app.lifecycle.endLiveStreams()
    const force = setTimeout(() => {
      log.error(`Requests still running after ${env.SHUTDOWN_TIMEOUT_MS} ms; closing their connections.`)
      void server.close(true)
    }, env.SHUTDOWN_TIMEOUT_MS)
    force.unref()
    await server.close()
    // A client that hung up leaves its request running here after its connection closed: it finishes (or the
    // shutdown timeout ends it) before the database it writes to is closed.
    await Promise.race([answering.settled(), new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_TIMEOUT_MS))])
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
    await options.afterStop?.()
    log.info('Stopped.')
    process.exit(closed ? 0 : 1)
  }
  process.on('SIGTERM', () => void stop('SIGTERM received'))
  process.on('SIGINT', () => void stop('SIGINT received'))
}
