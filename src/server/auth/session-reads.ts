import { type Auth, apiKeyHeader, authCookiePrefix } from './auth'

type SessionData = NonNullable<Awaited<ReturnType<Auth['api']['getSession']>>>

export interface SessionRead {
  /** The signed-in user and session, or null. */
  session: SessionData | null
  /** What Better Auth asked to send back (a new signed copy, an expired cookie); none when answered from memory. */
  headers: Headers | null
}

interface Remembered {
  session: SessionData
  /** When the signed copy it came from stops being trusted (ms since the epoch). */
  validUntil: number
}

/** Distinct cookie headers remembered per Better Auth instance; the least recently used go first. */
const maxRemembered = 10_000
const memories = new WeakMap<Auth, Map<string, Remembered>>()

/**
 * A session read for a page, a tRPC query or GET /api/auth/get-session: Better Auth's `getSession`, remembered per
 * exact cookie header while the signed session copy in it is trusted (SESSION_CACHE_SECONDS).
 *
 * Better Auth answers such a read from the copy without the database; verifying the copy's HMACs and copying its
 * context cost more than the rest of the request. The same bytes always verify the same way, so the verdict is
 * kept until the copy's own expiry: revocation takes effect exactly when it would without this (docs: Authentication,
 * "Session checks and revocation"). Only answers that came from a valid copy are kept: Better Auth sent no cookie
 * back, the cache is on and the request carried a copy. Changes never come here: they read the database.
 */
export async function readSession(auth: Auth, requestHeaders: Headers): Promise<SessionRead> {
  // Every landing page visit asks whether its visitor is signed in; most are not, and nothing in their request can
  // name a session: answered without Better Auth building a request context for it.
  if (!mayNameSession(requestHeaders)) return { session: null, headers: null }
  const remembered = rememberedSession(auth, requestHeaders)
  if (remembered) return { session: remembered, headers: null }
  const copy = sessionCopyOf(auth, requestHeaders)
  const { headers, response: session } = await auth.api.getSession({ headers: requestHeaders, returnHeaders: true })
  if (copy && session && !headers.has('set-cookie')) {
    const memory = memoryOf(auth)
    const validUntil = Math.min(copy.expiresAt, new Date(session.session.expiresAt).getTime())
    memory.set(requestHeaders.get('cookie') ?? '', { session, validUntil })
    for (const oldest of memory.keys()) {
      if (memory.size <= maxRemembered) break
      memory.delete(oldest)
    }
  }
  return { session, headers }
}

/**
 * The session remembered for exactly this cookie header, while its copy is trusted; undefined otherwise. Nothing is
 * decoded: the expiry was read from these same bytes when they were first verified.
 */
export function rememberedSession(auth: Auth, requestHeaders: Headers): SessionData | undefined {
  const memory = memories.get(auth)
  const key = memory && mayRemember(auth, requestHeaders) ? requestHeaders.get('cookie') : null
  const remembered = key ? memory?.get(key) : undefined
  if (!memory || !key || !remembered) return undefined
  memory.delete(key)
  if (remembered.validUntil <= Date.now()) return undefined
  memory.set(key, remembered) // re-inserted: most recently used last
  return remembered.session
}

function memoryOf(auth: Auth): Map<string, Remembered> {
  let memory = memories.get(auth)
  if (!memory) {
    memory = new Map()
    memories.set(auth, memory)
  }
  return memory
}

/** Any of Better Auth's cookies (the session token, its signed copy, "don't remember me"), secure-prefixed or not. */
const authCookie = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${authCookiePrefix}\\.`)

/** Whether the request carries anything that can choose a session: an auth cookie, an API key or a bearer token. */
function mayNameSession(headers: Headers): boolean {
  return headers.has(apiKeyHeader) || headers.has('authorization') || authCookie.test(headers.get('cookie') ?? '')
}

const copyName = `(?:^|;\\s*)(?:__Secure-)?${authCookiePrefix}\\.session_data`
const sessionCopyCookie = new RegExp(`${copyName}=([^;]*)`)
const chunkedCopyCookie = new RegExp(`${copyName}\\.\\d+=`)

/**
 * The expiry written in the request's signed session copy, read only to know how long Better Auth's verdict on these
 * exact bytes holds; undefined when nothing may be remembered (cache off, no copy, an API key or a bearer token
 * choosing the session, a copy split over several cookies, an unreadable copy).
 */
function sessionCopyOf(auth: Auth, headers: Headers): { expiresAt: number } | undefined {
  if (!mayRemember(auth, headers)) return undefined
  const cookie = headers.get('cookie') ?? ''
  const value = sessionCopyCookie.exec(cookie)?.[1]
  if (!value || chunkedCopyCookie.test(cookie)) return undefined
  try {
    const { expiresAt } = JSON.parse(Buffer.from(decodeURIComponent(value), 'base64url').toString('utf8')) as {
      expiresAt?: unknown
    }
    if (typeof expiresAt !== 'number') return undefined
    // Never longer than a copy may live, whatever the copy says (Better Auth rejects a forged one anyway).
    return { expiresAt: Math.min(expiresAt, Date.now() + sessionCopySeconds(auth) * 1000) }
  } catch {
    return undefined
  }
}

/** How long a signed session copy is trusted (SESSION_CACHE_SECONDS); 0 when the copy is off. */
export function sessionCopySeconds(auth: Auth): number {
  return auth.options.session?.cookieCache?.enabled ? (auth.options.session.cookieCache.maxAge ?? 0) : 0
}

/** Whether this request's session may come from memory: the cache is on, and no API key or bearer token chooses it. */
function mayRemember(auth: Auth, headers: Headers): boolean {
  return sessionCopySeconds(auth) > 0 && !headers.has(apiKeyHeader) && !headers.has('authorization')
}
