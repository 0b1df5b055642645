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

describe('an app server connecting to a Redis other servers already use', () => {
  const prefix = `hatch-test:${randomUUID()}:`
  let shared: Redis
  const connections: Redis[] = []
  const connecting = () => {
    const connection = connectRedis(redisUrl)
    connections.push(connection)
    return connection
  }
  const readyOf = (connection: Redis) =>
    connection.status === 'ready' ? Promise.resolve() : new Promise((resolve) => connection.once('ready', resolve))
  // What happens on `ready` (dropping keys after an outage) runs in the background: give it time to finish.
  const settled = () => new Promise((resolve) => setTimeout(resolve, 200))

  beforeAll(async () => {
    shared = connectRedis(redisUrl)
    await readyOf(shared)
  })
  afterAll(async () => {
    const keys = await shared.keys(`${prefix}*`)
    if (keys.length > 0) await shared.del(...keys)
    for (const connection of connections) connection.disconnect()
    await shared.quit()
  })

  it('keeps the sessions other servers stored when its first request comes before its connection is ready', async () => {
    await shared.set(`${prefix}other-servers-session`, 'kept', 'EX', 60)
    const connection = connecting()
    const storage = createRedisStorage(connection, prefix)
    expect(connection.status, 'the read below comes while the connection is being made').not.toBe('ready')
    expect(await storage.get('other-servers-session'), 'read from the database meanwhile').toBeNull()
    await readyOf(connection)
    await settled()
    expect(await shared.get(`${prefix}other-servers-session`)).toBe('kept')
    expect(await storage.get('other-servers-session')).toBe('kept')
  })

  it('stores what it writes while connecting, rather than leaving Redis behind the database', async () => {
    const connection = connecting()
    const storage = createRedisStorage(connection, prefix)
    expect(connection.status).not.toBe('ready')
    await storage.set('written-while-connecting', 'stored', 60)
    expect(await shared.get(`${prefix}written-while-connecting`)).toBe('stored')
  })

  it('still drops its keys after losing a connection it had, since a change may have missed Redis meanwhile', async () => {
    const connection = connecting()
    createRedisStorage(connection, prefix)
    await readyOf(connection)
    await shared.set(`${prefix}possibly-stale`, 'revoked meanwhile', 'EX', 60)
    const id = await connection.client('ID')
    // Listened for before the kill: the connection may notice it is gone before the kill's own reply arrives.
    const reconnecting = new Promise((resolve) => connection.once('reconnecting', resolve))
    await shared.client('KILL', 'ID', String(id))
    await reconnecting
    await readyOf(connection)
    await settled()
    expect(await shared.exists(`${prefix}possibly-stale`)).toBe(0)
  })
})
