import type { Redis } from 'ioredis'
import { type Database, pingDatabase } from './db/client'
import { unavailableRetryAfterSeconds } from './failure-answers'
import { log } from './log'

const pingTimeoutMs = 3_000

class HealthTimeout extends Error {}

function withinTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HealthTimeout(`${what} did not answer within ${pingTimeoutMs} ms`)),
      pingTimeoutMs,
    )
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

/**
 * 200 `ok` after a real database round trip and a Redis PING (when REDIS_URL is set); 503 with the reason when the
 * database cannot answer; 200 `degraded` with the reason when only Redis cannot, since the app then works on the
 * database alone (a load balancer keeps sending it requests).
 */
export async function checkHealth(db: Database, redis?: Redis): Promise<Response> {
  const headers = { 'Cache-Control': 'no-store' }
  // The reason names what failed, never the error's own text: a failed query's message quotes its SQL.
  const unavailable = (what: string, error: unknown) => {
    log().error({ err: error }, `health check: ${what} unreachable`)
    const reason = error instanceof HealthTimeout ? `no answer within ${pingTimeoutMs} ms` : 'connection failed'
    return Response.json(
      { status: 'error', reason: `${what} unreachable: ${reason}` },
      { status: 503, headers: { ...headers, 'Retry-After': String(unavailableRetryAfterSeconds) } },
    )
  }
  try {
    await withinTimeout(pingDatabase(db), 'database')
  } catch (error) {
    return unavailable('database', error)
  }
  if (redis) {
    try {
      await withinTimeout(redis.ping(), 'redis')
    } catch (error) {
      // Sessions and limits fall back to the database (src/server/auth/redis-storage.ts): the server still serves.
      log().warn({ err: error }, 'health check: redis unreachable')
      const reason = error instanceof HealthTimeout ? `no answer within ${pingTimeoutMs} ms` : 'connection failed'
      return Response.json(
        { status: 'degraded', reason: `redis unreachable: ${reason}; sessions and limits use the database` },
        { headers },
      )
    }
  }
  return Response.json({ status: 'ok' }, { headers })
}
