// Runs where REDIS_URL points at a Redis server (vitest.config.ts leaves the file out otherwise; .ci/run sets it).
// A notification made on one app server reaches a page whose stream is held by another, through Redis pub/sub: here
// the other server is a second Redis client publishing on the same channel, as its publishLiveUpdate would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis } from '#/server/auth/redis-storage'
import {
  type LiveUpdate,
  onLiveUpdate,
  publishLiveUpdate,
  startLiveUpdates,
  stopLiveUpdates,
} from '#/server/live-updates'

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

const nextUpdate = (userId: string) =>
  new Promise<LiveUpdate>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no live update within 5 s')), 5000)
    const stop = onLiveUpdate(userId, (update) => {
      clearTimeout(timer)
      stop()
      resolve(update)
    })
  })

describe('live updates across app servers', () => {
  beforeAll(() => startLiveUpdates(redisUrl))
  afterAll(() => stopLiveUpdates())

  it('hears an update another server published, for that person only', async () => {
    const otherServer = connectRedis(redisUrl)
    try {
      const heardByAda = nextUpdate('ada')
      let heardByBen = false
      const stopBen = onLiveUpdate('ben', () => {
        heardByBen = true
      })
      await otherServer.publish('hatch:live-updates', JSON.stringify({ userId: 'ada', topic: 'notifications' }))
      expect(await heardByAda).toEqual({ userId: 'ada', topic: 'notifications' })
      stopBen()
      expect(heardByBen).toBe(false)
    } finally {
      await otherServer.quit()
    }
  })

  it('sends its own updates through Redis, so every server (itself included) hears them once', async () => {
    const listener = connectRedis(redisUrl)
    try {
      const seenByOthers = new Promise<string>((resolve) =>
        listener.on('message', (_channel, message) => resolve(message)),
      )
      await listener.subscribe('hatch:live-updates')
      let heardHere = 0
      const stop = onLiveUpdate('cleo', () => {
        heardHere++
      })
      await publishLiveUpdate({ userId: 'cleo', topic: 'notifications' })
      expect(JSON.parse(await seenByOthers)).toEqual({ userId: 'cleo', topic: 'notifications' })
      await new Promise((resolve) => setTimeout(resolve, 300))
      stop()
      expect(heardHere).toBe(1)
    } finally {
      await listener.quit()
    }
  })

  it('ignores messages on the channel that are not updates', async () => {
    const otherServer = connectRedis(redisUrl)
    try {
      const heard = nextUpdate('dora')
      await otherServer.publish('hatch:live-updates', 'not json')
      await otherServer.publish('hatch:live-updates', JSON.stringify({ userId: 7 }))
      await otherServer.publish('hatch:live-updates', JSON.stringify({ userId: 'dora', topic: 'notifications' }))
      expect(await heard).toEqual({ userId: 'dora', topic: 'notifications' })
    } finally {
      await otherServer.quit()
    }
  })
})
