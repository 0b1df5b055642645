import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { type KnownSecret, passwordsInSource, secretsInEmail, secretsInLog } from '../../support/secrets-in-log'
import { appAdmin } from '../app-admin'
import { expect, test } from '../fixtures'
import { allEmails, waitForEmail } from '../mailbox'
import { serverLogFile, serverSecretsFile } from '../server-log-location'

// Runs after every other test (playwright.config.ts, project `last`): by then the server has printed whatever the
// whole run made it print, and none of it may be a secret (issue 26).

const port = Number(process.env.E2E_PORT ?? 3211)
const e2eDir = path.resolve(import.meta.dirname, '..')

function passwordsTheTestsUse(): KnownSecret[] {
  const sources = readdirSync(e2eDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))
  const passwords = new Set(sources.flatMap((file) => passwordsInSource(readFileSync(path.join(e2eDir, file), 'utf8'))))
  return [...passwords].map((value) => ({ what: 'a test password', value }))
}

test('the server log of the whole run holds no password, token, session, API key or secret', async ({ request }) => {
  // A last round of what a log is most tempted to print: a wrong password, a sign-in, an API key at work, a reset.
  const wrongPassword = `not-the-password-${Date.now()}`
  const refused = await request.post('/api/auth/sign-in/email', {
    headers: { origin: `http://localhost:${port}` },
    data: { email: appAdmin.email, password: wrongPassword },
  })
  expect(refused.status(), 'a wrong password is refused').toBe(401)
  const signedIn = await request.post('/api/auth/sign-in/email', {
    headers: { origin: `http://localhost:${port}` },
    data: { email: appAdmin.email, password: appAdmin.password },
  })
  expect(signedIn.status(), 'the app admin signs in').toBe(200)
  const created = await request.post('/api/auth/api-key/create', {
    headers: { origin: `http://localhost:${port}` },
    data: { name: 'Log check' },
  })
  expect(created.status(), 'an API key is created').toBe(200)
  const { key: apiKey } = (await created.json()) as { key: string }
  const asKey = await request.get('/api/trpc/account.me', { headers: { 'x-api-key': apiKey } })
  expect(asKey.status(), 'the API key works').toBe(200)
  const reset = await request.post('/api/auth/request-password-reset', {
    headers: { origin: `http://localhost:${port}`, 'accept-language': 'en' },
    data: { email: appAdmin.email, redirectTo: '/en/reset-password' },
  })
  expect(reset.status(), 'a reset link is sent').toBe(200)
  await waitForEmail(appAdmin.email, { subject: /Reset your Hatch password/ })

  const sessionCookies = (await request.storageState()).cookies.filter((cookie) => cookie.name.startsWith('hatch.'))
  expect(sessionCookies.length, 'the sign-in set session cookies').toBeGreaterThan(0)
  const known: KnownSecret[] = [
    { what: 'a wrong password typed at sign-in', value: wrongPassword },
    { what: 'an API key', value: apiKey },
    ...sessionCookies.flatMap((cookie) => {
      const value = decodeURIComponent(cookie.value)
      // The signed session cookie is `token.signature`; the token alone is the session's id in the database.
      return [value, value.split('.')[0] ?? ''].map((part) => ({ what: `the ${cookie.name} cookie`, value: part }))
    }),
    ...passwordsTheTestsUse(),
    ...allEmails().flatMap((email) =>
      secretsInEmail(`${email.subject}\n${email.text}`).map((value) => ({
        what: `a code or token emailed (“${email.subject.replace(/\d{6,}/, '…')}”)`,
        value,
      })),
    ),
    ...(JSON.parse(readFileSync(serverSecretsFile, 'utf8')) as KnownSecret[]),
  ]
  expect(known.some((secret) => secret.what === 'BETTER_AUTH_SECRET')).toBe(true)

  expect(existsSync(serverLogFile), 'tests/e2e/server.ts keeps the server log').toBe(true)
  const log = readFileSync(serverLogFile, 'utf8')
  expect(log, 'the log file holds what the server printed').toContain('Hatch is listening on')
  expect(secretsInLog(log, known), `secrets in ${path.relative(process.cwd(), serverLogFile)}`).toEqual([])
})
