// First load in a real browser: Debian's Chromium (no throttling) opens the landing page, a docs page, sign-in, the
// Dashboard and Books of an already running production server, each with an empty cache, and prints the median of
// several visits: DOMContentLoaded, Largest Contentful Paint, total blocking time, and the scripts it requested.
// Run by `npm run bench` after the HTTP rows. Settings (environment):
//   BENCH_URL          the server to measure (default http://localhost:3000), loopback only
//   BENCH_VISITS       visits per page, of which the median is shown (default 5)
// Goals (issue 30): DOMContentLoaded at most 300 ms on public pages and 600 ms on console pages, at most 20 scripts.
import { type Browser, chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../scripts/chromium.ts'
import { countScripts, median } from './first-load-scripts.ts'
import { fail } from './load.ts'

const origin = new URL(process.env.BENCH_URL || 'http://localhost:3000').origin
const visits = Number(process.env.BENCH_VISITS || 5)
if (!Number.isInteger(visits) || visits < 1) fail(`BENCH_VISITS must be a whole number of at least 1, got ${visits}`)

interface PageToMeasure {
  path: string
  signedIn: boolean
  domContentLoadedGoalMs: number
}

const pages: PageToMeasure[] = [
  { path: '/en/', signedIn: false, domContentLoadedGoalMs: 300 },
  { path: '/en/docs/development/testing', signedIn: false, domContentLoadedGoalMs: 300 },
  { path: '/en/sign-in', signedIn: false, domContentLoadedGoalMs: 300 },
  { path: '/en/console', signedIn: true, domContentLoadedGoalMs: 600 },
  { path: '/en/console/books', signedIn: true, domContentLoadedGoalMs: 600 },
]
const scriptGoal = 20

interface Visit {
  domContentLoadedMs: number
  largestContentfulPaintMs: number
  totalBlockingTimeMs: number
  scripts: number
  scriptKb: number
}

/** A fresh account's cookies (a new one each run), as a browser holds them after signing up. */
async function signedInState(browser: Browser) {
  const context = await browser.newContext()
  const email = `first-load-${Date.now()}@example.com`
  const response = await context.request.post(`${origin}/api/auth/sign-up/email`, {
    headers: { origin },
    data: { name: 'First Load', email, password: `first-load-${Date.now()}` },
  })
  if (response.status() !== 200) fail(`Signing up the benchmark account answered ${response.status()}.`)
  const state = await context.storageState()
  await context.close()
  return state
}

async function visit(browser: Browser, page: PageToMeasure, state: Awaited<ReturnType<typeof signedInState>>) {
  const context = await browser.newContext(page.signedIn ? { storageState: state } : {})
  const tab = await context.newPage()
  // Collected from the first byte: long tasks and the largest paint, which the page cannot report after the fact.
  await tab.addInitScript(() => {
    const collected = { longTasks: [] as { start: number; duration: number }[], lcp: 0 }
    ;(globalThis as unknown as { __firstLoad: typeof collected }).__firstLoad = collected
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        collected.longTasks.push({ start: entry.startTime, duration: entry.duration })
    }).observe({ type: 'longtask', buffered: true })
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) collected.lcp = entry.startTime
    }).observe({ type: 'largest-contentful-paint', buffered: true })
  })
  const scriptsSent = countScripts(tab)
  const response = await tab.goto(`${origin}${page.path}`, { waitUntil: 'networkidle' })
  if (response?.status() !== 200) fail(`${page.path} answered ${response?.status()}.`)
  if (new URL(tab.url()).pathname !== page.path) fail(`${page.path} went to ${tab.url()}: not the page to measure.`)
  const figures = await tab.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
    const collected = (
      globalThis as unknown as { __firstLoad: { longTasks: { start: number; duration: number }[]; lcp: number } }
    ).__firstLoad
    const firstPaint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0
    // Lighthouse's definition: each long task's time over 50 ms, after the first contentful paint.
    const blocking = collected.longTasks
      .filter((task) => task.start >= firstPaint)
      .reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0)
    return { domContentLoaded: navigation?.domContentLoadedEventEnd ?? 0, lcp: collected.lcp, blocking }
  })
  const { scripts, scriptKb } = await scriptsSent()
  await context.close()
  return {
    domContentLoadedMs: figures.domContentLoaded,
    largestContentfulPaintMs: figures.lcp,
    totalBlockingTimeMs: figures.blocking,
    scripts,
    scriptKb,
  } satisfies Visit
}

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
const rows: string[][] = []
const misses: string[] = []
try {
  const state = await signedInState(browser)
  for (const page of pages) {
    // One uncounted visit, so the server has rendered the page once (as it has when people arrive).
    await visit(browser, page, state)
    const measured: Visit[] = []
    for (let index = 0; index < visits; index++) measured.push(await visit(browser, page, state))
    const pick = (field: keyof Visit) => median(measured.map((entry) => entry[field]))
    const domContentLoaded = pick('domContentLoadedMs')
    const scripts = pick('scripts')
    if (domContentLoaded > page.domContentLoadedGoalMs)
      misses.push(`${page.path}: DOMContentLoaded ${domContentLoaded.toFixed(0)} ms > ${page.domContentLoadedGoalMs}`)
    if (scripts > scriptGoal) misses.push(`${page.path}: ${scripts} scripts > ${scriptGoal}`)
    rows.push([
      page.path,
      `${domContentLoaded.toFixed(0)}${domContentLoaded > page.domContentLoadedGoalMs ? ' ✗' : ''}`,
      pick('largestContentfulPaintMs').toFixed(0),
      pick('totalBlockingTimeMs').toFixed(0),
      `${scripts}${scripts > scriptGoal ? ' ✗' : ''}`,
      pick('scriptKb').toFixed(0),
    ])
  }
} finally {
  await browser.close()
}

const header = [
  'page (Chromium, no throttling)',
  'DOMContentLoaded ms',
  'LCP ms',
  'total blocking ms',
  `scripts (goal ${scriptGoal})`,
  'script KB (as sent)',
]
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)))
const line = (cells: string[]) =>
  `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`
console.log(`\nFirst load in Chromium, ${origin}, median of ${visits} visits with an empty cache\n`)
console.log(
  [
    line(header),
    `|${widths.map((width, column) => `${'-'.repeat(width + 1)}${column === 0 ? '-' : ':'}`).join('|')}|`,
    ...rows.map(line),
  ].join('\n'),
)
if (misses.length > 0) console.log(`\nBelow the goal:\n${misses.map((miss) => `- ${miss}`).join('\n')}`)
