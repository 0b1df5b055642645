import { describe, expect, it } from 'vitest'
import {
  createLogger,
  linesGroupedByTurn,
  loggablePath,
  requestIdOf,
  withoutSecretFields,
  withRequestId,
} from '#/server/log'

function capturedLogger(level = 'info') {
  const lines: string[] = []
  const logger = createLogger({ level, readable: false, destination: { write: (line) => lines.push(line) } })
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  return { logger, lines, parsed }
}

describe('the server log', () => {
  it('leaves what it logs unchanged: a secret is replaced in a copy, and an object without one is not copied', () => {
    const request = { method: 'GET', path: '/en/', status: 200 }
    expect(withoutSecretFields(request)).toBe(request)
    const signIn = {
      user: { email: 'a@example.com', password: 'hunter2-password' },
      items: [{ token: 'kept-in-arrays' }],
    }
    const logged = withoutSecretFields(signIn)
    expect(logged).toEqual({
      user: { email: 'a@example.com', password: '[not logged]' },
      items: [{ token: 'kept-in-arrays' }],
    })
    expect(signIn.user.password, 'the caller still has its object').toBe('hunter2-password')
  })

  it('writes one JSON object per line, with the level by name and the request id of the request that wrote it', () => {
    const { logger, parsed } = capturedLogger()
    logger.info('before any request')
    withRequestId('req-12345678', () => logger.warn({ members: 3 }, 'inside a request'))
    const [outside, inside] = parsed()
    expect(outside).toMatchObject({ level: 'info', msg: 'before any request' })
    expect(outside).not.toHaveProperty('requestId')
    expect(inside).toMatchObject({ level: 'warn', msg: 'inside a request', members: 3, requestId: 'req-12345678' })
    expect(typeof inside?.time).toBe('string')
  })

  it('gives each line outside a request only its own fields, and the time it was written', async () => {
    const { logger, parsed } = capturedLogger()
    logger.info({ path: '/en/', kept: true }, 'request')
    withRequestId('req-12345678', () => logger.info({ members: 3 }, 'inside a request'))
    logger.info({ path: '/en/docs' }, 'request')
    await new Promise((resolve) => setTimeout(resolve, 5))
    logger.info('a moment later')
    const [first, inside, second, later] = parsed()
    expect(first).toMatchObject({ path: '/en/', kept: true, msg: 'request' })
    expect(inside).toMatchObject({ requestId: 'req-12345678', members: 3 })
    // Lines outside a request share nothing: no field of an earlier line reaches a later one.
    expect(second).toMatchObject({ path: '/en/docs', msg: 'request' })
    expect(second).not.toHaveProperty('kept')
    expect(second).not.toHaveProperty('requestId')
    expect(later).not.toHaveProperty('path')
    for (const line of [first, inside, second, later]) {
      expect(line?.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    }
    expect(Date.parse(String(later?.time)), 'a later line, a later time').toBeGreaterThan(
      Date.parse(String(first?.time)),
    )
  })

  it('keeps lines below LOG_LEVEL out', () => {
    const { logger, lines } = capturedLogger('warn')
    logger.info('routine')
    logger.error('broken')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('broken')
  })

  it('never writes a password, token, cookie, API key or secret, whatever field or text it comes in', () => {
    const { logger, lines } = capturedLogger()
    const failedQuery = Object.assign(new Error('Failed query: select 1\nparams: s3cr3t-session-token'), {
      params: ['s3cr3t-session-token'],
    })
    logger.info({ password: 'hunter2-password', user: { token: 'tok-abcdef-123456' } }, 'sign in')
    logger.info({ headers: { cookie: 'hatch.session_token=cookie-value-123', 'x-api-key': 'hatch_abcdefghijkl' } })
    logger.info({ apiKey: 'hatch_zyxwvutsrqpo', clientSecret: 'client-secret-value' }, 'key made')
    logger.error({ err: failedQuery }, 'a query failed')
    logger.warn('a link went out: https://app.example/verify?token=link-token-987654&lang=en')
    const text = lines.join('\n')
    for (const secret of [
      'hunter2-password',
      'tok-abcdef-123456',
      'cookie-value-123',
      'hatch_abcdefghijkl',
      'hatch_zyxwvutsrqpo',
      'client-secret-value',
      's3cr3t-session-token',
      'link-token-987654',
    ]) {
      expect(text, secret).not.toContain(secret)
    }
    expect(text).toContain('Failed query: select 1')
    expect(text).toContain('lang=en')
  })

  it('keeps a proxy’s request id when it looks like one, and makes one otherwise', () => {
    const withId = (id: string) => new Request('http://localhost/', { headers: { 'x-request-id': id } })
    expect(requestIdOf(withId('3f2a9c4e1b7d4e0f8a6b5c4d3e2f1a0b'))).toBe('3f2a9c4e1b7d4e0f8a6b5c4d3e2f1a0b')
    expect(requestIdOf(withId('short'))).toMatch(/^[0-9a-f-]{36}$/)
    expect(requestIdOf(withId('a space \\ "quoted" id'))).toMatch(/^[0-9a-f-]{36}$/)
    expect(requestIdOf(new Request('http://localhost/'))).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('shows a path without the reset token, invitation or checkout it may carry', () => {
    expect(loggablePath('/api/auth/reset-password/Abc123TokenValue')).toBe('/api/auth/reset-password/[not logged]')
    expect(loggablePath('/zh/accept-invitation/inv_9f8e7d6c5b4a')).toBe('/zh/accept-invitation/[not logged]')
    expect(loggablePath('/en/pay/chk_0123456789')).toBe('/en/pay/[not logged]')
    expect(loggablePath('/en/console/organization/members')).toBe('/en/console/organization/members')
  })

  it('hands the first line of a turn on at once and the rest of that turn together at its end; flush (at exit) at once', async () => {
    const writes: string[] = []
    const lines = linesGroupedByTurn((text) => writes.push(text))
    const logger = createLogger({ level: 'info', readable: false, destination: lines })
    const messages = (text: string | undefined) =>
      (text ?? '')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).msg)
    logger.info('first')
    expect(writes.map(messages), 'the first line is out before anything else runs').toEqual([['first']])
    logger.info('second')
    logger.warn('third')
    expect(writes, 'the others wait for the end of the turn').toHaveLength(1)
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes.map(messages)).toEqual([['first'], ['second', 'third']])

    logger.info('next turn')
    expect(writes.map(messages).at(-1), 'a new turn’s first line is out at once').toEqual(['next turn'])
    logger.error('just before exit')
    lines.flush()
    expect(writes.map(messages).at(-1)).toEqual(['just before exit'])
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(writes.map(messages), 'nothing written twice').toEqual([
      ['first'],
      ['second', 'third'],
      ['next turn'],
      ['just before exit'],
    ])
  })

  it('loads its readable form (development) when asked for it, and only then', () => {
    const readable = createLogger({ level: 'debug', readable: true })
    expect(readable.isLevelEnabled('debug')).toBe(true)
    expect(() => readable.debug('a readable line, as npm run dev prints it')).not.toThrow()
  })
})
