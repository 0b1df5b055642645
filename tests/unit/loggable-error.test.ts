import { DrizzleQueryError } from 'drizzle-orm/errors'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger, writeAuthLine } from '#/server/log'
import { loggable, loggableError, withoutSecrets } from '#/server/loggable-error'

const sessionToken = 'Xk29fLqP0s7TbVw3nZyR4uHcJ8mAe1Dg'

/** The error the database layer throws when the connection drops during a session lookup. */
function failedSessionLookup(): Error {
  const cause = Object.assign(new Error('Connection terminated unexpectedly'), {
    code: '57P01',
    detail: `Key (token)=(${sessionToken}) already exists.`,
  })
  return new DrizzleQueryError('select "id" from "session" where "session"."token" = $1', [sessionToken], cause)
}

describe('what the server log may show of an error', () => {
  afterEach(() => vi.restoreAllMocks())

  it('a failed query keeps its SQL and stack but not the values it carried', () => {
    const logged = loggableError(failedSessionLookup())
    expect(logged).toContain('select "id" from "session" where "session"."token" = $1')
    expect(logged).toContain('params: [not logged]')
    expect(logged).toContain('caused by: Error [57P01]: Connection terminated unexpectedly')
    expect(logged).toMatch(/\n {4}at /)
    expect(logged).not.toContain(sessionToken)
  })

  it('a value with line breaks does not slip its second line into the log', () => {
    const error = new DrizzleQueryError('insert into "note" ("text") values ($1)', ['first line\nreset code 482913'])
    expect(loggableError(error)).not.toContain('482913')
  })

  it('links, cookies, API keys and URL credentials in a message are masked', () => {
    const text = withoutSecrets(
      [
        'GET /api/auth/verify-email?token=eyJhbGciOiJIUzI1NiJ9.abc.def&callbackURL=%2Fen',
        'cookie: hatch.session_token=abc123def456.sig; lang=en',
        'x-api-key hatch_Q2x9LmZ0aV3nP8sK1rT6uY4wE7oI5aS3',
        'authorization: Bearer abcdefgh12345678',
        'postgres://hatch:s3cret@db:5432/hatch',
      ].join('\n'),
    )
    for (const secret of [
      'eyJhbGciOiJIUzI1NiJ9',
      'abc123def456',
      'Q2x9LmZ0aV3nP8sK1rT6',
      'abcdefgh12345678',
      's3cret',
    ]) {
      expect(text).not.toContain(secret)
    }
    expect(text).toContain('callbackURL=%2Fen')
    expect(text).toContain('lang=en')
    expect(text).toContain('postgres://hatch:[not logged]@db:5432/hatch')
  })

  it('other values are printed as usual, minus secrets', () => {
    expect(loggable(42)).toBe(42)
    expect(loggable({ headers: { cookie: 'hatch.session_token=abcdef123456' } })).not.toContain('abcdef123456')
  })

  it('Better Auth’s errors reach the log without the query values', () => {
    const lines: string[] = []
    const logger = createLogger({ level: 'info', readable: false, destination: { write: (line) => lines.push(line) } })
    writeAuthLine(logger, 'error', 'DrizzleQueryError', [failedSessionLookup()])
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0] ?? '{}') as { level: string; component: string; msg: string; details: string[] }
    expect(line).toMatchObject({ level: 'error', component: 'auth', msg: 'DrizzleQueryError' })
    expect(line.details.join('\n')).toContain('Connection terminated unexpectedly')
    expect(lines[0]).not.toContain(sessionToken)
  })
})
