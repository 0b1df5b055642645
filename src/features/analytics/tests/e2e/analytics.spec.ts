import type { Browser, Page } from '@playwright/test'
import { signInAsAppAdmin } from '../../../../../tests/e2e/accounts'
import { expect, test } from '../../../../../tests/e2e/fixtures'

// Playwright's own Chromium calls itself HeadlessChrome, which counts as a bot: visitors here present ordinary
// browsers' user agents, and every other test's visits are (rightly) not counted.
const linuxChrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'
const macSafari =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15'
const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

/** A visitor in a browser of their own, arriving at `path` (from `referer`, when given). */
async function arrive(browser: Browser, userAgent: string, path: string, referer?: string) {
  const context = await browser.newContext({ userAgent })
  const page = await context.newPage()
  const counted = page.waitForResponse((response) => response.url().endsWith('/api/insights'))
  await page.goto(path, { referer })
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  expect((await counted).status(), 'the arrival is counted').toBe(202)
  return { page, close: () => context.close() }
}

/** The row of a dashboard breakdown whose first cell is `value`. */
function breakdownRow(page: Page, dimension: string, value: string) {
  return page
    .getByTestId(`breakdown-${dimension}`)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: value, exact: true }) })
}

test.describe('first-party analytics', () => {
  test('visits, client-side navigations and referrers reach the admin Dashboard; two browsers are two visitors, a bot none', async ({
    browser,
    page,
  }) => {
    const campaign = `e2e-${Date.now()}`
    const first = await arrive(
      browser,
      linuxChrome,
      `/en/?utm_source=e2e&utm_campaign=${campaign}`,
      'https://news.example/launch',
    )
    // On to the docs (a page of its own), then from page to page inside them: the router navigates without loading
    // a document. The time spent on a page is reported for that page, not for the one the router has just shown.
    await first.page.getByRole('link', { name: 'Docs', exact: true }).first().click()
    await expect(first.page).toHaveURL(/\/en\/docs$/)
    await first.page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    const clientSideView = first.page.waitForRequest(
      (request) => request.url().endsWith('/api/insights') && /\/en\/docs\/workspace/.test(request.postData() ?? ''),
    )
    const docsLeft = first.page.waitForRequest(
      (request) => request.url().endsWith('/api/insights') && (request.postData() ?? '').includes('"type":"leave"'),
    )
    await first.page.locator('#nd-sidebar').getByRole('link', { name: 'Workspace' }).click()
    await expect(first.page).toHaveURL(/\/en\/docs\/workspace$/)
    await clientSideView
    const leave = JSON.parse((await docsLeft).postData() ?? '{}') as { url?: string; durationMs?: number }
    expect(new URL(leave.url ?? 'http://x/').pathname, 'time on page belongs to the page left').toBe('/en/docs')
    expect(leave.durationMs).toBeGreaterThan(0)
    const backView = first.page.waitForRequest(
      (request) => request.url().endsWith('/api/insights') && /"url":"[^"]*\/en\/docs"/.test(request.postData() ?? ''),
    )
    await first.page.goBack()
    await backView
    // And back to the landing page: a third view of it in this run.
    const landingAgain = first.page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/insights') && /"url":"[^"]*\/en\/"/.test(response.request().postData() ?? ''),
    )
    await first.page.goto('/en/')
    expect((await landingAgain).status()).toBe(202)
    await first.close()

    const second = await arrive(browser, macSafari, `/en/?utm_campaign=${campaign}`)
    await second.close()
    const bot = await browser.newContext({ userAgent: googlebot })
    const botPage = await bot.newPage()
    const botAnswer = botPage.waitForResponse((response) => response.url().endsWith('/api/insights'))
    await botPage.goto(`/en/?utm_campaign=${campaign}`)
    expect((await botAnswer).status(), 'the bot is answered, not counted').toBe(204)
    await bot.close()

    await signInAsAppAdmin(page, 'en')
    await expect(page.getByRole('heading', { name: 'Site traffic' })).toBeVisible()
    // Beacons are written in batches, once a second: reload until this run's campaign is in.
    const campaignRow = breakdownRow(page, 'utm_campaign', campaign)
    await expect(async () => {
      await page.reload()
      await expect(campaignRow).toBeVisible({ timeout: 1000 })
    }).toPass({ timeout: 15_000 })
    // Two browsers, two visitors; the bot with the same campaign added none.
    await expect(campaignRow.getByRole('cell').first()).toHaveText('2')
    await expect(breakdownRow(page, 'referrer', 'news.example')).toBeVisible()
    await expect(breakdownRow(page, 'page', '/en/docs/workspace')).toBeVisible()
    await expect(breakdownRow(page, 'page', '/en/docs')).toBeVisible()
    // The landing page: two visitors (the bot is not one), three views (the first visitor came back to it).
    const landingRow = breakdownRow(page, 'page', '/en/')
    await expect(landingRow.getByRole('cell').nth(0)).toHaveText('2')
    await expect(landingRow.getByRole('cell').nth(1)).toHaveText('3')
    await expect(page.getByTestId('kpi-live')).not.toHaveText('0')

    // The traffic chart is drawn (its code loads with the first chart that has something to draw), with both lines.
    const traffic = page.getByTestId('chart-traffic')
    await expect(traffic.getByRole('img').locator('svg.recharts-surface')).toBeVisible()
    await expect(traffic.locator('.recharts-line')).toHaveCount(4)
    // Every chart can be read as a table.
    await traffic.getByRole('button', { name: 'Table' }).click()
    await expect(traffic.getByRole('table')).toBeVisible()
  })

  test('in Chinese, the Dashboard speaks Chinese and formats numbers and dates for China', async ({ page }) => {
    await signInAsAppAdmin(page, 'zh')
    await expect(page.getByRole('heading', { name: '网站流量' })).toBeVisible()
    await expect(page.getByRole('heading', { name: '热门页面' })).toBeVisible()
    // Dates as Chinese readers write them (2026年11月24日), in the range line.
    await expect(page.getByTestId('dashboard-range')).toContainText(/\d{4}年\d{1,2}月\d{1,2}日/)
  })
})
