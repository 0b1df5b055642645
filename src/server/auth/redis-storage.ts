import { createRequire } from 'node:module'
import type { BetterAuthOptions } from 'better-auth'
import type { Redis } from 'ioredis'
import type { Database } from '../db/client'
import { log } from '../log'
import { consumeRateLimit } from '../rate-limit'

export type SecondaryStorage = NonNullable<BetterAuthOptions['secondaryStorage']>
export type RateLimitStorage = NonNullable<NonNullable<BetterAuthOptions['rateLimit']>['customStorage']>

// INCR and EXPIRE in one step, so a counter never lives forever when a server dies between the two.
const incrementWithTtl = `local value = redis.call('INCR', KEYS[1])
if value == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return value`

interface ConnectionState {
  down: boolean
  /** Whether this connection has been ready once: before that, nothing was missed, so nothing is out of date. */
  connected: boolean
}

const outages = new WeakMap<Redis, ConnectionState>()

/**
 * Whether Redis takes commands now. While it does not, sessions are read from the database (every session is kept
 * there too) and limits are counted there, so every page and call keeps answering (issue 28). When it is back, what
 * it still holds may be out of date (a session revoked meanwhile), so this app's keys are dropped: the database
 * fills them again.
 */
function watchOutages(redis: Redis, prefix: string): ConnectionState {
  let outage = outages.get(redis)
  if (outage) return outage
  const state = { down: false, connected: redis.status === 'ready' }
  outage = state
  outages.set(redis, state)
  redis.on('ready', () => {
    state.connected = true
    if (!state.down) return
    state.down = false
    log().info('Redis is back; sessions and limits use it again')
    void forgetKeys(redis, prefix).catch((error: unknown) =>
      log().warn({ err: error }, 'the sessions Redis kept from before its outage were not all dropped'),
    )
  })
  redis.on('error', () => noteOutage(redis, state))
  redis.on('end', () => noteOutage(redis, state))
  redis.on('reconnecting', () => noteOutage(redis, state))
  return state
}

function noteOutage(redis: Redis, state: ConnectionState): void {
  // ioredis retries for ever: a connection that has ended was closed by this server as it stops, not lost.
  if (state.down || redis.status === 'end') return
  state.down = true
  log().warn('Redis does not answer; sessions and limits use the database until it is back')
}

async function forgetKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    cursor = next
    if (keys.length > 0) await redis.del(...keys)
  } while (cursor !== '0')
}

/**
 * Better Auth's secondary storage on Redis: sessions that every app server sees at once. Keys are prefixed so that
 * one Redis can serve several apps (or test runs). With Redis away, a read finds nothing (Better Auth then reads the
 * database) and a write is skipped.
 */
export function createRedisStorage(redis: Redis, prefix = 'hatch:auth:'): SecondaryStorage {
  const key = (name: string) => `${prefix}${name}`
  const outage = watchOutages(redis, prefix)
  const whenUp = async <T>(kind: 'read' | 'write', work: () => Promise<T>, otherwise: T): Promise<T> => {
    if (redis.status !== 'ready') {
      // A server's first connection is still being made (each app process connects on its first request). That is
      // no outage: counting it as one dropped every session and counter in Redis whenever a process started, the
      // other processes' too. A read goes to the database meanwhile; a write waits in the client's queue for the
      // connection, because one skipped would leave Redis behind the database (a sign-out it never heard of).
      const connecting = !outage.connected && !outage.down
      if (!connecting) noteOutage(redis, outage)
      if (!connecting || kind === 'read') return otherwise
    }
    try {
      return await work()
    } catch {
      noteOutage(redis, outage)
      return otherwise
    }
  }
  return {
    get: (name) => whenUp('read', () => redis.get(key(name)), null),
    getAndDelete: (name) => whenUp('write', () => redis.getdel(key(name)), null),
    increment: (name, ttlSeconds) =>
      whenUp(
        'write',
        async () =>
          Number(await redis.eval(incrementWithTtl, 1, key(name), String(Math.max(1, Math.ceil(ttlSeconds))))),
        1,
      ),
    set: (name, value, ttlSeconds) =>
      whenUp(
        'write',
        async () => {
          if (ttlSeconds && ttlSeconds > 0) await redis.set(key(name), value, 'EX', Math.ceil(ttlSeconds))
          else await redis.set(key(name), value)
        },
        undefined,
      ),
    delete: (name) =>
      whenUp(
        'write',
        async () => {
          await redis.del(key(name))
        },
        undefined,
      ),
  }
}

/**
 * Better Auth's rate limits counted in Redis, every server together; in the database (the same fixed windows) while
 * Redis is away.
 */
export function createRedisRateLimits(redis: Redis, db: Database, prefix = 'hatch:auth:'): RateLimitStorage {
  watchOutages(redis, prefix)
  return {
    consume: async (name, rule) => {
      if (redis.status === 'ready') {
        try {
          const seen = Number(
            await redis.eval(incrementWithTtl, 1, `${prefix}${name}`, String(Math.max(1, rule.window))),
          )
          return seen <= rule.max ? { allowed: true, retryAfter: null } : { allowed: false, retryAfter: rule.window }
        } catch {
          // Counted in the database below.
        }
      }
      const counted = await consumeRateLimit(db, `auth:${name}`, { limit: rule.max, windowMs: rule.window * 1000 })
      return counted.allowed
        ? { allowed: true, retryAfter: null }
        : { allowed: false, retryAfter: counted.retryAfterSeconds }
    },
  }
}

/**
 * A Redis connection that fails fast: a request errors instead of waiting forever while Redis is down. The client
 * library is loaded here, when a Redis URL is set, rather than at every start: it was about 50 ms of a cold start
 * that most deployments (one server, no Redis) never use.
 */
export function connectRedis(url: string): Redis {
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis')
  return new RedisClient(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false })
}

/**
 * Closes a connection at shutdown. QUIT lets the replies still owed arrive first; when it fails (the connection was
 * already lost, or closed under it), the socket is dropped instead, so a stopping server never fails on its way out.
 */
export async function closeRedis(connection: Redis): Promise<void> {
  await connection.quit().catch(() => connection.disconnect())
}
