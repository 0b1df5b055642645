// Starts the built production server for the end-to-end tests, on a database nobody else uses:
// a fresh PGlite folder, or a fresh PostgreSQL database on the server DATABASE_URL names (dropped on exit).
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { SMTPServer } from 'smtp-server'
import { buildWhenStale } from '../../scripts/build.ts'
import { clientDir } from '../../scripts/project.ts'
import { startProductionServer } from '../../scripts/serve.ts'
import { startDnsServer } from '../support/dns-server.ts'
import { fakeModelId, startFakeOpenAi } from '../support/fake-openai.ts'
import { startTestOidcProvider } from '../support/oidc-provider.ts'
import { createThrowawayPostgresDatabase } from '../support/postgres-database.ts'
import { appAdmin } from './app-admin.ts'
import { fakeAiPort } from './fake-ai-location.ts'
import { mailboxDir } from './mailbox-location.ts'
import { serverLogFile, serverSecretsFile } from './server-log-location.ts'

const cleanups: (() => Promise<void> | void)[] = []

// Everything the app server prints goes into a file that tests/e2e/last/server-log.spec.ts searches for secrets
// once every other test has run, and, except the one line per request, where it went before (Playwright's pipe):
// thousands of request lines would bury a failure's own output. The app runs in this process, so its console is
// this process's stdout and stderr.
mkdirSync(path.dirname(serverLogFile), { recursive: true })
const serverLog = openSync(serverLogFile, 'w')
const isRequestLine = (line: string) => line.startsWith('{"level":"info"') && line.includes('"msg":"request"')
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean
  // A character split across two writes is decoded whole.
  const decoder = new StringDecoder('utf8')
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    writeSync(serverLog, bytes)
    const shown = decoder
      .write(Buffer.from(bytes))
      .split(/(?<=\n)/)
      .filter((line) => !isRequestLine(line))
      .join('')
    const done = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined
    if (shown !== '') return write(shown, done)
    if (done) process.nextTick(done)
    return true
  }) as typeof stream.write
}

async function createFreshPostgresDatabase(adminUrl: string): Promise<void> {
  const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_e2e')
  process.env.DATABASE_URL = database.url
  cleanups.push(database.drop)
}

process.env.PORT = process.env.E2E_PORT ?? '3211'
// APP_URL is left unset, as on a newcomer's machine: the app is at http://localhost:PORT, and a page asked for on
// another loopback name is sent there (tests/e2e/one-address.spec.ts).
delete process.env.APP_URL
const appUrl = `http://localhost:${process.env.PORT}`
process.env.HATCH_DEBUG_ROUTES = '1'
// The webhook receivers the tests start listen on this machine's loopback address.
process.env.WEBHOOKS_ALLOW_PRIVATE = '1'
// Every test signs up from 127.0.0.1; the limits themselves are tested in tests/integration/auth.test.ts.
process.env.AUTH_SIGN_IN_LIMIT = '1000'
process.env.AUTH_SIGN_UP_LIMIT = '1000'
process.env.AUTH_REQUEST_LIMIT = '100000'
process.env.AUTH_EMAIL_LIMIT = '1000'
// Every "Ask the docs" question comes from 127.0.0.1 too; the limit itself is tested in tests/integration.
process.env.AI_DOCS_QUESTIONS_PER_MINUTE = '1000'
// Stories where another device is signed out (a ban, "sign out other sessions") wait for the session cookie cache to
// lapse, as a real device would; 5 s keeps them short. The default is 60.
process.env.SESSION_CACHE_SECONDS = '5'
const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-e2e-'))
process.env.DATA_DIR = dataDir
cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
if (process.env.DATABASE_URL) await createFreshPostgresDatabase(process.env.DATABASE_URL)

// A real SMTP server the app delivers to; every message lands as a .eml file the tests read (tests/e2e/mailbox.ts).
rmSync(mailboxDir, { recursive: true, force: true })
mkdirSync(mailboxDir, { recursive: true })
let received = 0
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, done) {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => {
      received++
      writeFileSync(path.join(mailboxDir, `${Date.now()}-${received}.eml`), Buffer.concat(chunks))
      done()
    })
  },
})
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526)
await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve))
process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`
cleanups.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())))

// An OpenAI-compatible provider answering scripted turns: the assistant and "Ask the docs" talk to it as to any other
// (tests/e2e/assistant.spec.ts scripts it over HTTP).
const fakeAi = await startFakeOpenAi({ port: fakeAiPort })
process.env.AI_BASE_URL = fakeAi.url
process.env.AI_MODEL = fakeModelId
cleanups.push(fakeAi.close)

// A real OpenID provider for generic OAuth sign-in (tests/e2e/oauth.spec.ts); the app discovers it at start.
const oidcProvider = await startTestOidcProvider({ appUrl })
process.env.OAUTH_PROVIDERS = JSON.stringify([oidcProvider.config])
cleanups.push(oidcProvider.close)

// Single sign-on (tests/e2e/sso.spec.ts): identity providers on 127.0.0.1, and a DNS responder for the domain's TXT
// record that the spec writes through its control port (E2E_DNS_PORT + 1).
const dnsPort = Number(process.env.E2E_DNS_PORT ?? 4653)
const dns = await startDnsServer({ port: dnsPort, controlPort: dnsPort + 1 })
process.env.SSO_DNS_SERVERS = `127.0.0.1:${dnsPort}`
process.env.SSO_ALLOW_PRIVATE = '1'
cleanups.push(dns.close)

await buildWhenStale()
// A marker left by a run that crashed would let the tests start too early.
rmSync(path.join(clientDir, 'e2e-ready.txt'), { force: true })
await startProductionServer({
  afterStop: async () => {
    for (const cleanup of cleanups) await cleanup()
  },
})

// The first account of a fresh install becomes its app admin: make it a known one, before any test signs up.
const signUp = await fetch(`${appUrl}/api/auth/sign-up/email`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: appUrl },
  body: JSON.stringify(appAdmin),
})
if (signUp.status !== 200) throw new Error(`signing up the app admin answered ${signUp.status}: ${await signUp.text()}`)
const readyFile = path.join(clientDir, 'e2e-ready.txt')
// The secrets this server holds, for the log check to look for by value (its auth secret was generated at start).
const authSecretFile = path.join(dataDir, 'auth-secret')
const serverSecrets = [
  {
    what: 'BETTER_AUTH_SECRET',
    value:
      process.env.BETTER_AUTH_SECRET ?? (existsSync(authSecretFile) ? readFileSync(authSecretFile, 'utf8').trim() : ''),
  },
  { what: 'the OAuth client secret', value: oidcProvider.config.clientSecret },
  { what: 'the database password', value: process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).password : '' },
].filter((secret) => secret.value !== '')
writeFileSync(serverSecretsFile, JSON.stringify(serverSecrets))

writeFileSync(readyFile, 'ready\n')
cleanups.push(() => rmSync(readyFile, { force: true }))
