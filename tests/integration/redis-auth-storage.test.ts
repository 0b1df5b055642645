// Runs where REDIS_URL points at a Redis server (vitest.config.ts leaves the file out otherwise; .ci/run sets it).
import { randomUUID } from 'node:crypto'
import type { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuth } from '#/server/auth/auth'
import { connectRedis, createRedisRateLimits, createRedisStorage } from '#/server/auth/redis-storage'
import { authRateLimits } from '#/server/db/schema'
import { checkHealth } from '#/server/health'
import { authRequest, cookieHeaderOf as sessionCookieOf } from './auth-requests'
import { createFreshDatabase, engines, type FreshDatabase } from './test-databases'

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

describe.each(engines)('two app servers sharing Redis, on %s', (engine) => {
  let database: FreshDatabase
  let redis: Redis
  // A prefix of its own, so parallel runs and earlier runs never share counters.
  const prefix = `hatch-test:${randomUUID()}:`
  let serverA: ReturnType<typeof createAuth>
  let serverB: ReturnType<typeof createAuth>

  const request = (
    server: ReturnType<typeof createAuth>,
    path: string,
    options: { body?: unknown; cookie?: string; ip?: string } = {},
  ) => authRequest(server, path, { ...options, ip: options.ip ?? '192.0.2.1' })

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    redis = connectRedis(redisUrl)
    // Two Better Auth instances stand for two app servers: one database, one Redis, as getAuth() sets them up.
    const onRedis = () => ({
      secondaryStorage: createRedisStorage(redis, prefix),
      rateLimitStorage: createRedisRateLimits(redis, database.connection.db, prefix),
    })
    serverA = createAuth(database.connection.db, onRedis())
    serverB = createAuth(database.connection.db, onRedis())
    const created = await request(serverA, '/sign-up/email', {
      body: { name: 'Grace', email: 'grace@example.com', password: 'cobol1959' },
    })
    expect(created.status).toBe(200)
  })
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
    await database.dispose()
  })

  it('a session made on one server is known to the other, and ends on both at sign-out', async () => {
    const signIn = await request(serverA, '/sign-in/email', {
      body: { email: 'grace@example.com', password: 'cobol1959' },
    })
    expect(signIn.status).toBe(200)
    const cookie = sessionCookieOf(signIn)
    const { token } = (await signIn.json()) as { token: string }
    expect(await redis.exists(`${prefix}${token}`)).toBe(1)

    const onB = (await (await request(serverB, '/get-session', { cookie })).json()) as { user?: { email: string } }
    expect(onB?.user?.email).toBe('grace@example.com')

    expect((await request(serverB, '/sign-out', { body: {}, cookie })).status).toBe(200)
    expect(await redis.exists(`${prefix}${token}`)).toBe(0)
    expect(await (await request(serverA, '/get-session', { cookie })).json()).toBeNull()
  })

  it('counts sign-in attempts across both servers in Redis, then answers 429 on either', async () => {
    // A different account each time: failures per account have their own limit (sign-in-throttle.test.ts).
    let guess = 0
    const attempt = (server: ReturnType<typeof createAuth>) =>
      request(server, '/sign-in/email', {
        body: { email: `guess-${guess++}@example.com`, password: 'wrong-password1' },
        ip: '192.0.2.77',
      })
    const statuses: number[] = []
    for (let index = 0; index < 10; index++) statuses.push((await attempt(index % 2 ? serverB : serverA)).status)
    expect(statuses).toEqual(Array(10).fill(401))
    expect((await attempt(serverA)).status).toBe(429)
    expect((await attempt(serverB)).status).toBe(429)
    // The counters live in Redis, not in the database.
    expect(await database.connection.db.select().from(authRateLimits)).toEqual([])
    expect((await redis.keys(`${prefix}*192.0.2.77*`)).length).toBeGreaterThan(0)
  })
})

describe('GET /api/health with sessions in Redis', () => {
  it('is 200 ok while Redis answers, and 200 degraded naming Redis once it does not', async () => {
    const database = await createFreshDatabase('pglite')
    await database.connection.migrate()
    const redis = connectRedis(redisUrl)
    try {
      expect((await checkHealth(database.connection.db, redis)).status).toBe(200)
      redis.disconnect()
      const response = await checkHealth(database.connection.db, redis)
      expect(response.status, 'the server still serves, on the database alone').toBe(200)
      const body = (await response.json()) as { status: string; reason: string }
      expect(body.status).toBe('degraded')
      expect(body.reason).toMatch(/^redis unreachable: /)
    } finally {
      redis.disconnect()
      await database.dispose()
    }
  })
})
