import type { Redis } from 'ioredis'
import { connectRedis } from './auth/redis-storage'
import type { Database } from './db/client'
import { forgetSiteSettings } from './settings'

// Several app servers share one database and one Redis: a settings change on one is announced on this channel, and
// every server (the one that made it too) forgets its cached copy at once instead of waiting for the cache to expire.
const channel = 'hatch:site-settings-changed'

export interface SettingsSync {
  /** Tells every server that the settings changed. */
  announce(): Promise<void>
  stop(): Promise<void>
}

/** One server's link to the others: it listens for their announcements and makes its own. */
export async function createSettingsSync(db: Database, redisUrl: string): Promise<SettingsSync> {
  const subscriber = connectRedis(redisUrl)
  const publisher = connectRedis(redisUrl)
  subscriber.on('message', (from) => {
    if (from === channel) forgetSiteSettings(db)
  })
  await subscriber.subscribe(channel)
  const close = (redis: Redis) => redis.quit().catch(() => redis.disconnect())
  return {
    announce: async () => {
      await publisher.publish(channel, String(Date.now()))
    },
    stop: async () => {
      await Promise.all([close(subscriber), close(publisher)])
    },
  }
}

let current: SettingsSync | undefined

/** Joins the other servers (only with REDIS_URL; one server alone needs no announcements). */
export async function startSettingsSync(db: Database, redisUrl: string | undefined): Promise<void> {
  if (!redisUrl || current) return
  current = await createSettingsSync(db, redisUrl)
}

/** Announces a change made on this server (nothing to do without Redis). */
export async function announceSettingsChange(): Promise<void> {
  await current?.announce()
}

export async function stopSettingsSync(): Promise<void> {
  await current?.stop()
  current = undefined
}
