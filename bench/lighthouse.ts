// Lighthouse (mobile emulation and throttling, its defaults) on the landing page, a docs page, sign-in, and the
// Dashboard and Books of a new account, on an already running production server, in Debian's Chromium; run by
// `npm run bench` after the HTTP rows. Settings (environment):
//   BENCH_URL     the server to audit (default http://localhost:3000)
//   CHROME_PATH   the browser (default /usr/bin/chromium); nothing is downloaded
//   LIGHTHOUSE_RUNS  audits per page (default 3); the table shows the run with the median performance score, since
//                    one run's score moves by up to ±10 here from run to run, and the lowest score beside it: the goal
//                    holds for every run, not only the median
//   LIGHTHOUSE_PAGES pages to audit, comma-separated (default: all five), to look at one page while fixing it
//   LIGHTHOUSE_REPORTS  a folder to write each run's full JSON report into (default: none)
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { launch } from 'chrome-launcher'
import lighthouse, { type RunnerResult } from 'lighthouse'
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts'

const origin = new URL(process.env.BENCH_URL || 'http://localhost:3000').origin
const allPages = ['/en/', '/en/docs/development/testing', '/en/sign-in', '/en/console', '/en/console/books']
const pages = process.env.LIGHTHOUSE_PAGES
  ? process.env.LIGHTHOUSE_PAGES.split(',').map((page) => page.trim())
  : allPages
const reportsFolder = process.env.LIGHTHOUSE_REPORTS
if (reportsFolder) mkdirSync(reportsFolder, { recursive: true })
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

type Result = RunnerResult['lhr']
const performanceOf = (lhr: Result) => Math.round((lhr.categories.performance?.score ?? 0) * 100)
const ms = (lhr: Result, id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0)
const cls = (lhr: Result) => (lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)
type Items = Array<Record<string, unknown>>
const itemsOf = (lhr: Result, id: string): Items => {
  const details = lhr.audits[id]?.details as { items?: Items } | undefined
  return details?.items ?? []
}
const shortUrl = (url: unknown) => (typeof url === 'string' ? url.replace(origin, '') || url : String(url))

/**
 * What held a run back, in a line each: the metrics, the element Lighthouse took for the largest paint, the longest
 * main-thread tasks and the scripts that cost the most time. The score alone does not say which of them to fix.
 */
function offendersOf(lhr: Result): string[] {
  const lines = [
    `score ${performanceOf(lhr)}: FCP ${ms(lhr, 'first-contentful-paint')}, LCP ${ms(lhr, 'largest-contentful-paint')}, TBT ${ms(lhr, 'total-blocking-time')}, CLS ${cls(lhr)}, SI ${ms(lhr, 'speed-index')}`,
  ]
  const lcp = lhr.audits['lcp-breakdown-insight']?.details as
    | { items?: Array<{ type?: string; items?: Items; nodeLabel?: string; snippet?: string }> }
    | undefined
  for (const part of lcp?.items ?? []) {
    if (part.type === 'node') lines.push(`LCP element: ${part.snippet ?? part.nodeLabel ?? '?'}`)
    if (part.type === 'table')
      lines.push(
        `LCP phases: ${(part.items ?? []).map((phase) => `${phase.label ?? phase.subpart} ${Math.round(Number(phase.duration))}`).join(', ')}`,
      )
  }
  const longTasks = itemsOf(lhr, 'long-tasks')
    .slice(0, 5)
    .map(
      (task) =>
        `${shortUrl(task.url)} ${Math.round(Number(task.duration))} ms at ${Math.round(Number(task.startTime))}`,
    )
  if (longTasks.length > 0) lines.push(`long tasks: ${longTasks.join('; ')}`)
  const scripts = itemsOf(lhr, 'bootup-time')
    .slice(0, 4)
    .map(
      (script) =>
        `${shortUrl(script.url)} ${Math.round(Number(script.total))} ms (script ${Math.round(Number(script.scripting))})`,
    )
  if (scripts.length > 0) lines.push(`main-thread time by script: ${scripts.join('; ')}`)
  const shifts = itemsOf(lhr, 'layout-shifts')
    .slice(0, 3)
    .map(
      (shift) =>
        `${(shift.node as { snippet?: string } | undefined)?.snippet ?? '?'} ${Number(shift.score).toFixed(3)}`,
    )
  if (shifts.length > 0) lines.push(`layout shifts: ${shifts.join('; ')}`)
  return lines
}

const chrome = await launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs })
const rows: string[][] = []
const misses: string[] = []
const lowest: string[] = []
/** Lighthouse's measure of the host's CPU per audit: its 4× slowdown stands for a mid-range phone at about 1,500. */
const benchmarkIndexes: number[] = []
try {
  for (const page of pages) {
    const runs: Result[] = []
    for (let run = 0; run < runCount; run++) {
      const { lhr, report } = await audit(chrome.port, page)
      runs.push(lhr)
      if (reportsFolder) {
        const name = `${page.replaceAll('/', '_').replace(/^_|_$/g, '') || 'root'}-${run + 1}.json`
        writeFileSync(join(reportsFolder, name), Array.isArray(report) ? (report[0] ?? '') : report)
      }
    }
    benchmarkIndexes.push(...runs.map((run) => Math.round(run.environment.benchmarkIndex)))
    const sorted = [...runs].sort((a, b) => performanceOf(a) - performanceOf(b))
    const result = sorted[Math.floor((sorted.length - 1) / 2)] as Result
    const worst = sorted[0] as Result
    const row = [page]
    for (const category of Object.keys(goals) as Category[]) {
      const score = Math.round((result.categories[category]?.score ?? 0) * 100)
      row.push(`${score}${score < goals[category] ? ' ✗' : ''}`)
      if (category === 'performance') {
        const min = performanceOf(worst)
        row.push(`${min}${min < goals.performance ? ' ✗' : ''}`)
      }
      if (score < goals[category]) {
        const failing = Object.values(result.audits)
          .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative')
          .filter((audit) =>
            result.categories[category]?.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0),
          )
          .map((audit) => audit.title)
        misses.push(`${page} ${category} ${score} < ${goals[category]}: ${failing.slice(0, 5).join('; ')}`)
      }
    }
    row.push(`${ms(result, 'first-contentful-paint')}`, `${ms(result, 'largest-contentful-paint')}`)
    row.push(`${ms(result, 'total-blocking-time')}`, cls(result))
    // The worst run's blocking time beside the median's: it is what moves the lowest score most on the console.
    row.push(`${ms(worst, 'total-blocking-time')}`)
    rows.push(row)
    lowest.push(`${page}, its lowest run:`, ...offendersOf(worst).map((line) => `  ${line}`))
  }
} finally {
  chrome.kill()
}

// The metrics behind the performance score, as Lighthouse simulated them (ms), of the median run.
const header = [
  `page (mobile, median of ${runCount})`,
  `performance (goal ${goals.performance})`,
  'lowest',
  ...Object.entries(goals)
    .filter(([name]) => name !== 'performance')
    .map(([name, goal]) => `${name} (goal ${goal})`),
  'FCP',
  'LCP',
  'TBT',
  'CLS',
  'TBT lowest',
]
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)))
const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`
const indexRange = `${Math.min(...benchmarkIndexes)}-${Math.max(...benchmarkIndexes)}`
console.log(`\nLighthouse ${origin} (the host's benchmark index ${indexRange}; the 4× CPU slowdown assumes ~1,500)\n`)
console.log([line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n'))
if (misses.length > 0) console.log(`\nBelow the goal:\n${misses.map((miss) => `- ${miss}`).join('\n')}`)
console.log(`\nWhat held back each page's lowest run:\n${lowest.join('\n')}`)
