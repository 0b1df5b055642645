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

/**
 * Streams one person may hold open at once: a console in several tabs, windows and devices. Each stream holds a
 * connection and a listener for as long as the page stays, so without a cap one account could hold thousands.
 * Counted on this server, and with REDIS_URL across all of them.
 */
export const streamsPerPersonMax = 10

/** How long a server's claim on a place lasts unless renewed: the places of a server that died free themselves. */
export const streamPlaceLifetimeMs = 60_000

export interface StreamPlace {
  /** Keeps the place while the stream is open (call well within {@link streamPlaceLifetimeMs}). */
  renew(): void
  release(): void
}

const placesHere = new Map<string, number>()
const placesKey = (userId: string) => `hatch:live-streams:${userId}`

// The key lives as long as its latest claim: a claim or renewal lengthens its life, never shortens it (another
// server's claim may reach further).
const keepKeyScript = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end`

// Drops expired claims, then adds this one only if fewer than the cap remain, in one step on the Redis server.
const claimScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])${keepKeyScript}
return 1`

// Keeps a claim, and its key, for another lifetime. A plain ZADD: a key that lapsed anyway (Redis restarted, a server
// paused past the lifetime) gets the claim back, since the stream it counts is still open.
const renewScript = `
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])${keepKeyScript}
return 1`

let placeCounter = 0

/**
 * Takes one of the person's stream places; null when they already hold {@link streamsPerPersonMax}. `lifetimeMs` is
 * for tests, which cannot wait a minute for a claim to lapse.
 */
export async function claimStreamPlace(
  userId: string,
  lifetimeMs: number = streamPlaceLifetimeMs,
): Promise<StreamPlace | null> {
  const here = placesHere.get(userId) ?? 0
  if (here >= streamsPerPersonMax) return null
  // Taken here before asking Redis, so parallel requests on this server cannot all pass while Redis answers.
  placesHere.set(userId, here + 1)
  const member = `${process.pid}:${Date.now()}:${++placeCounter}`
  const shared = redis?.publisher
  const freeHere = () => {
    const left = (placesHere.get(userId) ?? 1) - 1
    if (left > 0) placesHere.set(userId, left)
    else placesHere.delete(userId)
  }
  if (shared) {
    try {
      const now = Date.now()
      const claimed = await shared.eval(
        claimScript,
        1,
        placesKey(userId),
        now + lifetimeMs,
        member,
        lifetimeMs,
        now,
        streamsPerPersonMax,
      )
      if (claimed !== 1) {
        freeHere()
        return null
      }
    } catch (error) {
      // Redis away: this server's own cap still holds.
      log().warn({ err: error }, 'a notification stream was not counted across servers (Redis unreachable)')
    }
  }
  let released = false
  return {
    renew() {
      if (released || !shared) return
      shared.eval(renewScript, 1, placesKey(userId), Date.now() + lifetimeMs, member, lifetimeMs).catch(() => undefined)
    },
    release() {
      if (released) return
      released = true
      freeHere()
      shared?.zrem(placesKey(userId), member).catch(() => undefined)
    },
  }
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
