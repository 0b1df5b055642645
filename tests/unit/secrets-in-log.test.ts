import { describe, expect, it } from 'vitest'
import { passwordsInSource, secretsInEmail, secretsInLog } from '../support/secrets-in-log'

// The check the end-to-end run ends with (tests/e2e/last/server-log.spec.ts): it must catch what a careless log line
// would print, and stay quiet on an ordinary log.

const ordinaryLog = [
  'Hatch is listening on http://localhost:3211 (public URL http://localhost:3211)',
  'Generated an auth secret in /tmp/hatch-e2e-x/; set BETTER_AUTH_SECRET in production.',
  '[assistant] the model provider failed: 503 Service Unavailable',
  '[email] SMTP_URL is not set; kept in the outbox for ada@example.com: "•••••• is your Hatch sign-in code"',
  'SIGTERM received: finishing in-flight requests… (1764086400123)',
].join('\n')

describe('the search of the server log for secrets', () => {
  it('finds nothing in an ordinary log', () => {
    expect(secretsInLog(ordinaryLog, [{ what: 'a code', value: '086400' }])).toEqual([])
  })

  it('catches a request whose headers were printed: its cookie, its API key, its bearer token', () => {
    const logged = [
      "[trpc] request headers: { cookie: 'hatch.session_token=AbC123def456GHI789.sig%3D; lang=en' }",
      "Headers { 'x-api-key': 'hatch_Q2x9LmZ0aV3nP8sK1rT6uY4wE7oI5aS3dF2gH9jK' }",
      'authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.signature',
    ]
    for (const line of logged) expect(secretsInLog(line, []), line).not.toEqual([])
    expect(secretsInLog(logged[0] ?? '', []).map((finding) => finding.what)).toContain('a session cookie')
  })

  it('catches links with tokens, and credentials in a URL', () => {
    for (const line of [
      'sending http://localhost:3211/api/auth/verify-email?token=eyJhbGciOiJIUzI1NiJ9.x.y&callbackURL=%2Fen',
      'reset link: http://localhost:3211/api/auth/reset-password/k3J9sLm2Qp8XvT4w?callbackURL=%2Fen',
      'connecting to postgres://hatch:s3cret-pass@db.internal:5432/hatch',
    ]) {
      expect(secretsInLog(line, []), line).not.toEqual([])
    }
  })

  it('catches a known secret by value wherever it is, and never repeats it in its report', () => {
    const findings = secretsInLog('[auth] sign-in failed for ada@example.com with cobol-1959\n', [
      { what: 'a test password', value: 'cobol-1959' },
    ])
    expect(findings).toEqual([{ what: 'a test password', line: 1, excerpt: expect.any(String) }])
    expect(findings[0]?.excerpt).not.toContain('cobol-1959')
  })

  it('finds a one-time code on its own, not inside a longer number', () => {
    expect(secretsInLog('your code is 482913', [{ what: 'a code', value: '482913' }])).toHaveLength(1)
    expect(secretsInLog('at 17640482913001 ms', [{ what: 'a code', value: '482913' }])).toEqual([])
  })

  it('reads the passwords the test files use from their source', () => {
    const source = `
      const account = { name: 'Grace', email: 'g@example.com', password: 'cobol-1959' }
      await page.getByLabel('Password', { exact: true }).fill(account.password)
      const passwords = [account.password, 'nopedigits', 'second-pass2']
      const newPassword = 'flow-matic-1957'
      expect(label).toBe('Password')
    `
    expect(passwordsInSource(source).sort()).toEqual(['cobol-1959', 'flow-matic-1957', 'nopedigits', 'second-pass2'])
  })

  it('takes the codes and tokens out of an email', () => {
    const text = [
      'Hello Ada,',
      '482913',
      'Or open http://localhost:3211/api/auth/magic-link/verify?token=QmFzZTY0VG9rZW4x&callbackURL=%2Fen%2Fconsole',
      'Invitation: http://localhost:3211/en/accept-invitation/inv9Xk2LmQ7pR3sT8vW',
      '© 2026 Hatch',
    ].join('\n')
    expect(secretsInEmail(text).sort()).toEqual(['482913', 'QmFzZTY0VG9rZW4x', 'inv9Xk2LmQ7pR3sT8vW'].sort())
  })
})
