import type { BetterAuthOptions } from 'better-auth'
import { Redis } from 'ioredis'

export type SecondaryStorage = NonNullable<BetterAuthOptions['secondaryStorage']>

// INCR and EXPIRE in one step, so a counter never lives forever when a server dies between the two.
const incrementWithTtl = `local value = redis.call('INCR', KEYS[1])
if value == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return value`

/**
 * Better Auth's secondary storage on Redis: sessions and rate-limit counters that every app server sees at once.
 * Keys are prefixed so that one Redis can serve several apps (or test runs).
 */
export function createRedisStorage(redis: Redis, prefix = 'hatch:auth:'): SecondaryStorage {
  const key = (name: string) => `${prefix}${name}`
  return {
    get: (name) => redis.get(key(name)),
    getAndDelete: (name) => redis.getdel(key(name)),
    increment: async (name, ttlSeconds) =>
      Number(await redis.eval(incrementWithTtl, 1, key(name), String(Math.max(1, Math.ceil(ttlSeconds))))),
    set: async (name, value, ttlSeconds) => {
      if (ttlSeconds && ttlSeconds > 0) await redis.set(key(name), value, 'EX', Math.ceil(ttlSeconds))
      else await redis.set(key(name), value)
    },
    delete: async (name) => {
      await redis.del(key(name))
    },
  }
}

/** A Redis connection that fails fast: a request errors instead of waiting forever while Redis is down. */
export function connectRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false })
}
