// Runs where REDIS_URL points at a Redis server (vitest.config.ts leaves the file out otherwise; .ci/run sets it).
// A person's open notification streams are counted across the app servers that share Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeRedis, connectRedis } from '#/server/auth/redis-storage'
import { claimStreamPlace, startLiveUpdates, stopLiveUpdates, streamsPerPersonMax } from '#/server/live-updates'
import { type OrganizationHarness, organizationHarness } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { openStream, streamAnswerOf } from './notification-streams'

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

describe.each(engines)('notification streams with Redis on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  const streamAnswer = (who: Parameters<typeof streamAnswerOf>[1]) => streamAnswerOf(database, who)

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(database.connection.db)
  }, 60_000)
  afterAll(() => database.dispose())

  it('counts a person’s streams across servers sharing Redis', async () => {
    const dave = await h.signUp(`Dave Devices ${engine}`)
    const redis = connectRedis(redisUrl)
    await startLiveUpdates(redisUrl)
    try {
      const key = `hatch:live-streams:${dave.id}`
      // Other servers hold all of Dave's places but one.
      const later = Date.now() + 60_000
      for (let other = 1; other < streamsPerPersonMax; other++) await redis.zadd(key, later, `other-server:${other}`)
      const here = await openStream(database, dave)
      expect((await streamAnswer(dave)).status, 'the places other servers hold count here').toBe(429)
      await here.close()
      // A server that stopped without saying so: its claims lapse and free their places.
      await redis.del(key)
      for (let other = 0; other < streamsPerPersonMax; other++) {
        await redis.zadd(key, Date.now() - 1, `dead-server:${other}`)
      }
      const revived = await openStream(database, dave)
      await revived.close()
    } finally {
      await stopLiveUpdates()
      await closeRedis(redis)
    }
  })

  it('keeps counting an open stream for as long as it is renewed, past its first lifetime', async () => {
    const erin = await h.signUp(`Erin Renews ${engine}`)
    const redis = connectRedis(redisUrl)
    await startLiveUpdates(redisUrl)
    const lifetimeMs = 400
    const key = `hatch:live-streams:${erin.id}`
    const place = await claimStreamPlace(erin.id, lifetimeMs)
    try {
      expect(place, 'the first place').not.toBeNull()
      // Other servers hold the rest of Erin's places, each renewing its own claim as this server renews its one.
      const others = Array.from({ length: streamsPerPersonMax - 1 }, (_, other) => `other-server:${other}`)
      const renewOthers = () => Promise.all(others.map((member) => redis.zadd(key, Date.now() + lifetimeMs, member)))
      await renewOthers()
      for (let beat = 0; beat < 8; beat++) {
        await new Promise((resolve) => setTimeout(resolve, lifetimeMs / 4))
        place?.renew()
        await renewOthers()
      }
      // Two lifetimes on, every stream is still open and renewed: all ten places are still counted.
      expect(await redis.zcard(key), 'the claims kept their key alive').toBe(streamsPerPersonMax)
      expect(await redis.pttl(key), 'the key lives on').toBeGreaterThan(0)
      expect(await claimStreamPlace(erin.id, lifetimeMs), 'an eleventh stream, two lifetimes later').toBeNull()
    } finally {
      place?.release()
      await stopLiveUpdates()
      await closeRedis(redis)
    }
  })
})
