import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import pino, { type Logger } from 'pino'
import { EnvError, getEnv } from './env'
import { loggable, loggableError, withoutSecrets } from './loggable-error'
import { currentTraceId } from './tracing'

/**
 * The server's one log (issue 28): JSON lines from pino, one object per event, with the id of the request that wrote
 * it; readable lines in development. What could be a secret never reaches it: errors go through loggableError, text
 * through withoutSecrets, and fields with a secret's name are replaced (withoutSecretFields).
 */

const requestIds = new AsyncLocalStorage<string>()

/** The header a proxy may pass its own id in, and the one every answer carries its id back in. */
export const requestIdHeader = 'X-Request-Id'

/** A proxy's id is kept when it looks like one (nginx's `$request_id`, a UUID); anything else gets a fresh id. */
const acceptableRequestId = /^[\w.:-]{8,128}$/

/** The id a request is logged under: the proxy's, or a new one. */
export function requestIdOf(request: Request): string {
  return requestIdFrom(request.headers.get(requestIdHeader))
}

/** The id a proxy gave the request in its X-Request-Id header when it is one we can log, or a new one. */
export function requestIdFrom(given: string | null | undefined): string {
  return given && acceptableRequestId.test(given) ? given : randomUUID()
}

/** Runs one request's handling so that every line it logs carries its id. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestIds.run(requestId, work)
}

export function currentRequestId(): string | undefined {
  return requestIds.getStore()
}

/** Field names whose values are never logged, at the top of a logged object or one level down. */
const secretFields = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'secret',
  'clientSecret',
  'apiKey',
  'key',
  'cookie',
  'authorization',
  'x-api-key',
  'set-cookie',
  'otp',
]
const secretFieldNames = new Set(secretFields)
const notLogged = '[not logged]'

/** A nested value whose fields are looked at: a plain object (not an array, an error or a class instance). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * The logged object with the values of secret fields replaced, at its top and one level down; untouched (not copied)
 * when it has none. By hand rather than pino's `redact`: its wildcard paths cost about 35 µs a line, most of what
 * logging a request cost (issue 30).
 */
export function withoutSecretFields(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined
  for (const key of Object.keys(object)) {
    if (secretFieldNames.has(key)) {
      copy ??= { ...object }
      copy[key] = notLogged
      continue
    }
    const value = object[key]
    if (!isPlainObject(value)) continue
    let inner: Record<string, unknown> | undefined
    for (const innerKey of Object.keys(value)) {
      if (!secretFieldNames.has(innerKey)) continue
      inner ??= { ...value }
      inner[innerKey] = notLogged
    }
    if (inner) {
      copy ??= { ...object }
      copy[key] = inner
    }
  }
  return copy ?? object
}

/** The mixin's fields for a line written outside any request or trace (a kept page's): none, and no object made. */
const noScope = Object.freeze({})

let lastTimeMs = Number.NaN
let lastTimeField = ''

/**
 * pino's ISO time field, worked out once per millisecond: a busy server writes several lines in each one (a kept
 * page's request line, thousands a second), and formatting the date was a quarter of what a line cost.
 */
function isoTimeOncePerMillisecond(): string {
  const now = Date.now()
  if (now !== lastTimeMs) {
    lastTimeMs = now
    lastTimeField = `,"time":"${new Date(now).toISOString()}"`
  }
  return lastTimeField
}

export function createLogger(options: {
  level: string
  readable: boolean
  destination?: pino.DestinationStream
}): Logger {
  const settings: pino.LoggerOptions = {
    level: options.level,
    mixin: () => {
      const requestId = requestIds.getStore()
      const traceId = currentTraceId()
      if (!requestId && !traceId) return noScope
      return { ...(requestId ? { requestId } : {}), ...(traceId ? { traceId } : {}) }
    },
    // pino's own strategy copies the line's fields into the mixin's object; a line with nothing to add keeps its own.
    mixinMergeStrategy: (fields, added) => (added === noScope ? fields : Object.assign(added, fields)),
    formatters: { level: (label) => ({ level: label }), log: withoutSecretFields },
    timestamp: isoTimeOncePerMillisecond,
    serializers: { err: (error: unknown) => loggableError(error) },
    hooks: {
      // Text written into a message (an address, a URL, an error's message) is screened like an error's.
      logMethod(args, method) {
        // Except the request line's fixed message, written once per request: its path is screened (loggablePath).
        if (args.length === 2 && args[1] === 'request') return method.apply(this, args)
        const screened = args.map((arg) => (typeof arg === 'string' && arg !== 'request' ? withoutSecrets(arg) : arg))
        method.apply(this, screened as Parameters<typeof method>)
      },
    },
  }
  if (!options.readable) return pino(settings, options.destination ?? standardOutputLines())
  // Loaded only for readable lines (development), not at every production start.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty')
  return pino(settings, pretty({ sync: true, colorize: process.stdout.isTTY, ignore: 'pid,hostname' }))
}

/**
 * The first line of a turn of the event loop is handed on at once; lines that follow it in the same turn wait for the
 * turn's end (or exit) and go together. A busy server then writes to stdout about twice per turn rather than once per
 * request, which was half of what logging a request cost (issue 30), while a quiet one still has each request's line
 * out before its answer (tests and operators rely on that order).
 */
export function linesGroupedByTurn(write: (text: string) => void): pino.DestinationStream & { flush(): void } {
  let pending: string[] = []
  let turnStarted = false
  const flush = () => {
    turnStarted = false
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    write(text)
  }
  return {
    write(line: string) {
      if (turnStarted) {
        pending.push(line)
        return
      }
      turnStarted = true
      setImmediate(flush)
      write(line)
    },
    flush,
  }
}

/**
 * process.stdout rather than pino's own file-descriptor writer: on Linux it writes synchronously to a file or pipe,
 * so what was handed on is there even when the process ends right after, and whoever embeds the server (the
 * end-to-end tests) sees the lines.
 */
function standardOutputLines(): pino.DestinationStream {
  const lines = linesGroupedByTurn((text) => process.stdout.write(text))
  process.once('exit', lines.flush)
  return lines
}

let logger: Logger | undefined

/** The server's logger, at LOG_LEVEL (readable lines under `npm run dev`). */
export function log(): Logger {
  if (logger) return logger
  let level = 'info'
  let readable = false
  try {
    const env = getEnv()
    level = env.LOG_LEVEL
    readable = env.NODE_ENV === 'development'
  } catch (error) {
    // A bad variable is reported by whoever starts the server; the log itself still works.
    if (!(error instanceof EnvError)) throw error
  }
  logger = createLogger({ level, readable })
  return logger
}

/**
 * Paths whose last part works as a key for whoever holds the link: a password reset
 * (`/api/auth/reset-password/<token>`), an invitation (`/en/accept-invitation/<id>`), a checkout to pay.
 */
const pathsWithAKey = /(\/(?:reset-password|accept-invitation|pay)\/)[^/]+/

/** A path as the log shows it: without such a key, and without the query (verification tokens, search words). */
export function loggablePath(pathname: string): string {
  return withoutSecrets(pathname.replace(pathsWithAKey, '$1[not logged]'))
}

type AuthLogLevel = 'debug' | 'info' | 'warn' | 'error'

/** Better Auth's log lines, screened like ours (its default logger prints whole errors, query values included). */
export function authLog(level: AuthLogLevel, message: string, ...args: unknown[]): void {
  writeAuthLine(log(), level, message, args)
}

export function writeAuthLine(logger: Logger, level: AuthLogLevel, message: string, args: unknown[]): void {
  logger[level]({ component: 'auth', ...(args.length > 0 ? { details: args.map(loggable) } : {}) }, message)
}
