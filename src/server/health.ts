import type { Redis } from 'ioredis'
import { type Database, pingDatabase } from './db/client'

const pingTimeoutMs = 3_000

function withinTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${pingTimeoutMs} ms`)), pingTimeoutMs)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

/**
 * 200 after a real database round trip (and a Redis PING when sessions live in Redis); 503 with the reason when
 * either cannot answer.
 */
export async function checkHealth(db: Database, redis?: Redis): Promise<Response> {
  const headers = { 'Cache-Control': 'no-store' }
  try {
    await withinTimeout(pingDatabase(db), 'database')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return Response.json({ status: 'error', reason: `database unreachable: ${reason}` }, { status: 503, headers })
  }
  if (redis) {
    try {
      await withinTimeout(redis.ping(), 'redis')
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return Response.json({ status: 'error', reason: `redis unreachable: ${reason}` }, { status: 503, headers })
    }
  }
  return Response.json({ status: 'ok' }, { headers })
}
