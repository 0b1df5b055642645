import { closeRedis, connectRedis } from './auth/redis-storage'
import type { Database } from './db/client'
import { log } from './log'
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
  // While Redis is away announcements are lost (each server's copy still expires within 30 s); once it is back, a
  // change made meanwhile is read at once. Connection errors are the auth storage's to report (redis-storage.ts).
  let wasDown = false
  for (const connection of [subscriber, publisher]) {
    connection.on('error', () => {
      wasDown = true
    })
  }
  subscriber.on('ready', () => {
    if (wasDown) forgetSiteSettings(db)
    wasDown = false
  })
  await subscriber.subscribe(channel)
  return {
    announce: async () => {
      // A change is saved whether or not Redis carries the news; the other servers then see it when their copy expires.
      await publisher.publish(channel, String(Date.now())).catch((error: unknown) => {
        log().warn({ err: error }, 'a settings change was not announced to the other servers (Redis unreachable)')
      })
    },
    stop: async () => {
      await Promise.all([closeRedis(subscriber), closeRedis(publisher)])
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
