import { sql } from 'drizzle-orm'
import type { Database } from './db/client'
import { rateLimits } from './db/schema'

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number
  windowMs: number
}

export interface RateLimitResult {
  allowed: boolean
  /** Seconds until the window resets; for a Retry-After header. */
  retryAfterSeconds: number
}

/**
 * Counts one request against `key` in a fixed window, atomically in one statement, so that several app servers
 * sharing the database enforce one limit together.
 */
export async function consumeRateLimit(db: Database, key: string, rule: RateLimitRule): Promise<RateLimitResult> {
  const windowStart = sql`now() - make_interval(secs => ${rule.windowMs / 1000})`
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart} then 1 else ${rateLimits.count} + 1 end`,
        windowStartedAt: sql`case when ${rateLimits.windowStartedAt} <= ${windowStart} then now() else ${rateLimits.windowStartedAt} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      resetsInMs: sql<number>`extract(epoch from (${rateLimits.windowStartedAt} - ${windowStart})) * 1000`.mapWith(
        Number,
      ),
    })
  // Old windows are dead weight; sweeping now and then keeps the table as small as the set of recent clients.
  if (Math.random() < 0.01) {
    await db.delete(rateLimits).where(sql`${rateLimits.windowStartedAt} < now() - interval '1 day'`)
  }
  const count = row?.count ?? 1
  return {
    allowed: count <= rule.limit,
    retryAfterSeconds: Math.max(1, Math.ceil((row?.resetsInMs ?? rule.windowMs) / 1000)),
  }
}

/**
 * Calls one API key may make, counted here in fixed windows rather than by Better Auth's api-key plugin: its window
 * restarts only after a quiet spell as long as the window, so a key used steadily was refused for good once it had
 * made its 600 calls (the ten-minute soak found it).
 */
export const apiKeyCallLimit: RateLimitRule = { limit: 600, windowMs: 60_000 }

/** Counts one call of the API key `keyId` (its id, never the key) against {@link apiKeyCallLimit}. */
export function consumeApiKeyCall(db: Database, keyId: string): Promise<RateLimitResult> {
  return consumeRateLimit(db, `api-key:${keyId}`, apiKeyCallLimit)
}

/** The cause of a TOO_MANY_REQUESTS error; the API turns it into a Retry-After header. */
export class RateLimitExceeded extends Error {
  override name = 'RateLimitExceeded'
  constructor(readonly retryAfterSeconds: number) {
    super(`Rate limit exceeded; retry after ${retryAfterSeconds} s`)
  }
}
