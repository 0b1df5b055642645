// Lighthouse (mobile emulation and throttling, its defaults) on the landing page, a docs page, sign-in, and the
// Dashboard and Books of a new account, on an already running production server, in Debian's Chromium; run by
// `npm run bench` after the HTTP rows. Settings (environment):
//   BENCH_URL     the server to audit (default http://localhost:3000)
//   CHROME_PATH   the browser (default /usr/bin/chromium); nothing is downloaded
//   LIGHTHOUSE_RUNS  audits per page (default 3); the table shows the run with the median performance score, since
//                    one run's score moves by up to ±10 here from run to run
import { launch } from 'chrome-launcher'
import lighthouse, { type RunnerResult } from 'lighthouse'
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts'

const origin = new URL(process.env.BENCH_URL || 'http://localhost:3000').origin
const pages = ['/en/', '/en/docs/development/testing', '/en/sign-in', '/en/console', '/en/console/books']
const signedInPages = new Set(['/en/console', '/en/console/books'])

/** The session cookies of an account signed up for this run (the console pages are audited as its owner). */
async function signedInCookie(): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      name: 'Lighthouse',
      email: `lighthouse-${Date.now()}@example.com`,
      password: `lh-${Date.now()}-pw`,
    }),
  })
  if (response.status !== 200) throw new Error(`Signing up the Lighthouse account answered ${response.status}`)
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((pair) => !pair.endsWith('='))
    .join('; ')
}
const cookie = await signedInCookie()

/**
 * Puts the session cookies into the browser's own jar (DevTools protocol, browser-wide), as signing in would. A
 * Cookie header in Lighthouse's `extraHeaders` reaches the server render but not the page's own requests, which then
 * find no session and go to sign-in.
 */
async function storeCookies(port: number, pairs: string): Promise<void> {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string
  }
  const socket = new WebSocket(webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true })
    socket.addEventListener('error', reject, { once: true })
  })
  const url = new URL(origin)
  const cookies = pairs.split('; ').map((pair) => {
    const at = pair.indexOf('=')
    return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: url.hostname, path: '/', httpOnly: true }
  })
  socket.send(JSON.stringify({ id: 1, method: 'Storage.setCookies', params: { cookies } }))
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('message', (event) => {
      const answer = JSON.parse(String(event.data)) as { id?: number; error?: { message: string } }
      if (answer.id !== 1) return
      if (answer.error) reject(new Error(`Storing the session cookies failed: ${answer.error.message}`))
      else resolve()
    })
  })
  socket.close()
}
/** Issue 12's goals per category, as Lighthouse scores them (0-100). */
const goals = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 } as const
type Category = keyof typeof goals

const runCount = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 3)

/**
 * One audit of one page, in the browser the bench started. A run whose trace Lighthouse could not read (it says to
 * run it again, NO_NAVSTART now and then here) is run again, twice at most.
 */
async function audit(port: number, page: string): Promise<RunnerResult> {
  for (let attempt = 1; ; attempt++) {
    // Lighthouse clears the site's storage before each audit unless told not to: the console pages keep the session.
    if (signedInPages.has(page)) await storeCookies(port, cookie)
    const result = await lighthouse(`${origin}${page}`, {
      port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: Object.keys(goals),
      disableStorageReset: signedInPages.has(page),
    })
    if (!result) throw new Error(`Lighthouse returned nothing for ${page}`)
    const { runtimeError } = result.lhr
    if (runtimeError && attempt < 3) continue
    if (runtimeError) throw new Error(`Lighthouse failed on ${page} three times: ${runtimeError.message}`)
    const landed = new URL(result.lhr.finalDisplayedUrl).pathname
    if (landed !== page) throw new Error(`Lighthouse was sent from ${page} to ${landed}: not the page to audit`)
    return result
  }
}

const chrome = await launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs })
const rows: string[][] = []
const misses: string[] = []
/** Lighthouse's measure of the host's CPU per audit: its 4× slowdown stands for a mid-range phone at about 1,500. */
const benchmarkIndexes: number[] = []
try {
  for (const page of pages) {
    const runs: RunnerResult[] = []
    for (let run = 0; run < runCount; run++) runs.push(await audit(chrome.port, page))
    benchmarkIndexes.push(...runs.map((run) => Math.round(run.lhr.environment.benchmarkIndex)))
    const performanceOf = (run: RunnerResult) => run.lhr.categories.performance?.score ?? 0
    const sorted = [...runs].sort((a, b) => performanceOf(a) - performanceOf(b))
    const result = sorted[Math.floor((sorted.length - 1) / 2)] as RunnerResult
    const spread =
      runs.length > 1
        ? ` (${Math.round(performanceOf(sorted[0] as RunnerResult) * 100)}–${Math.round(performanceOf(sorted.at(-1) as RunnerResult) * 100)})`
        : ''
    const row = [page]
    for (const category of Object.keys(goals) as Category[]) {
      const score = Math.round((result.lhr.categories[category]?.score ?? 0) * 100)
      row.push(`${score}${category === 'performance' ? spread : ''}${score < goals[category] ? ' ✗' : ''}`)
      if (score < goals[category]) {
        const failing = Object.values(result.lhr.audits)
          .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
          .filter((audit) =>
            result.lhr.categories[category]?.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0),
          )
          .map((audit) => audit.title)
        misses.push(`${page} ${category} ${score} < ${goals[category]}: ${failing.slice(0, 5).join('; ')}`)
      }
    }
    const ms = (id: string) => `${Math.round(result.lhr.audits[id]?.numericValue ?? 0)}`
    row.push(ms('first-contentful-paint'), ms('largest-contentful-paint'), ms('total-blocking-time'))
    rows.push(row)
  }
} finally {
  chrome.kill()
}

// The metrics behind the performance score, as Lighthouse simulated them (ms).
const header = [
  `page (mobile, median of ${runCount})`,
  ...Object.entries(goals).map(([name, goal]) => `${name} (goal ${goal})`),
  'FCP',
  'LCP',
  'TBT',
]
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)))
const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`
const indexRange = `${Math.min(...benchmarkIndexes)}-${Math.max(...benchmarkIndexes)}`
console.log(`\nLighthouse ${origin} (the host's benchmark index ${indexRange}; the 4× CPU slowdown assumes ~1,500)\n`)
console.log([line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n'))
if (misses.length > 0) console.log(`\nBelow the goal:\n${misses.map((miss) => `- ${miss}`).join('\n')}`)
