// Lighthouse (mobile emulation and throttling, its defaults) on the landing page, a docs page, sign-in, and the
// Dashboard and Books of a new account, on an already running production server, in Debian's Chromium; run by
// `npm run bench` after the HTTP rows. Settings (environment):
//   BENCH_URL     the server to audit (default http://localhost:3000)
//   CHROME_PATH   the browser (default /usr/bin/chromium); nothing is downloaded
import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
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
/** Issue 12's goals per category, as Lighthouse scores them (0-100). */
const goals = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 } as const
type Category = keyof typeof goals

const chrome = await launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs })
const rows: string[][] = []
const misses: string[] = []
try {
  for (const page of pages) {
    const result = await lighthouse(`${origin}${page}`, {
      port: chrome.port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: Object.keys(goals),
      extraHeaders: signedInPages.has(page) ? { cookie } : undefined,
    })
    if (!result) throw new Error(`Lighthouse returned nothing for ${page}`)
    const landed = new URL(result.lhr.finalDisplayedUrl).pathname
    if (landed !== page) throw new Error(`Lighthouse was sent from ${page} to ${landed}: not the page to audit`)
    const row = [page]
    for (const category of Object.keys(goals) as Category[]) {
      const score = Math.round((result.lhr.categories[category]?.score ?? 0) * 100)
      row.push(`${score}${score < goals[category] ? ' ✗' : ''}`)
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
    rows.push(row)
  }
} finally {
  chrome.kill()
}

const header = ['page (mobile)', ...Object.entries(goals).map(([name, goal]) => `${name} (goal ${goal})`)]
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)))
const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`
console.log(`\nLighthouse ${origin}\n`)
console.log([line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n'))
if (misses.length > 0) console.log(`\nBelow the goal:\n${misses.map((miss) => `- ${miss}`).join('\n')}`)
