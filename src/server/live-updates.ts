import { EventEmitter } from 'node:events'
import type { Redis } from 'ioredis'
import { closeRedis, connectRedis } from './auth/redis-storage'
import { log } from './log'

// "Something changed for this person": the console's open pages hear it through Server-Sent Events and read what
// changed through tRPC. One server alone tells its own listeners; with REDIS_URL every server publishes on one
// channel and every server (the publisher too) tells the listeners it holds, so a page connected to one server hears
// what happened on another behind the same load balancer.
const channel = 'hatch:live-updates'

export interface LiveUpdate {
  userId: string
  /** What changed, for the page to know what to read again (`notifications`). */
  topic: string
}

const local = new EventEmitter()
// Every open console page is a listener: the default warning at 10 is about leaks, not this.
local.setMaxListeners(0)

let redis: { publisher: Redis; subscriber: Redis } | undefined

function deliverLocally(update: LiveUpdate) {
  local.emit(update.userId, update)
}

/** Tells every page the person has open, on any server, that `topic` changed. */
export async function publishLiveUpdate(update: LiveUpdate): Promise<void> {
  if (!redis) {
    deliverLocally(update)
    return
  }
  try {
    await redis.publisher.publish(channel, JSON.stringify(update))
  } catch (error) {
    // Redis away: this server's own pages still hear it; the others catch up when their page next reads.
    log().warn({ err: error }, 'a live update was not sent to the other servers (Redis unreachable)')
    deliverLocally(update)
  }
}

/** Listens for the person's updates until the returned function is called. */
export function onLiveUpdate(userId: string, listener: (update: LiveUpdate) => void): () => void {
  local.on(userId, listener)
  return () => local.off(userId, listener)
}

/** Pages holding a stream open on this server, each with the way to end it (so a stopping server is not held up). */
const openStreams = new Set<() => void>()

export function holdStream(end: () => void): () => void {
  openStreams.add(end)
  return () => openStreams.delete(end)
}

/** Ends every open stream: a stopping server lets its pages reconnect to another one at once. */
export function endLiveStreams(): void {
  for (const end of [...openStreams]) end()
  openStreams.clear()
}

/** Joins the other servers' updates (only with REDIS_URL). */
export async function startLiveUpdates(redisUrl: string | undefined): Promise<void> {
  if (!redisUrl || redis) return
  const subscriber = connectRedis(redisUrl)
  const publisher = connectRedis(redisUrl)
  // Connection errors are the auth storage's to report (redis-storage.ts); a publish falls back to this server.
  for (const connection of [subscriber, publisher]) connection.on('error', () => undefined)
  subscriber.on('message', (from, message) => {
    if (from !== channel) return
    try {
      const update = JSON.parse(message) as LiveUpdate
      if (typeof update.userId === 'string' && typeof update.topic === 'string') deliverLocally(update)
    } catch {
      // Not ours.
    }
  })
  await subscriber.subscribe(channel)
  redis = { publisher, subscriber }
}

export async function stopLiveUpdates(): Promise<void> {
  endLiveStreams()
  const current = redis
  redis = undefined
  if (current) await Promise.all([closeRedis(current.subscriber), closeRedis(current.publisher)])
}
