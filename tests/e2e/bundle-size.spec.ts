import { gzipSync } from 'node:zlib'
import { expect, test } from './fixtures'

/**
 * JavaScript a first visit downloads (gzip), per page: fails when a page grows past its budget. The budgets sit a
 * little above the sizes when they were set (194, 244 and 267 KB) so a heavy import into a shared route definition
 * shows up here; docs/decisions/018-first-load-javascript.md says what is in them and why issue 12's lower goals are
 * not met. Sign-in was raised from 272 to 274 KB when issue 27's translated error codes, the plural runtime and the
 * console's access guards brought it to 272.9 KB: each is a few hundred bytes of words, not a heavy import. Issue 29
 * brought it to 274.4 KB (measured against the build before: +445 B the translations of seven app codes that reached
 * Chinese pages in English, +160 B a message now shared by sign-in and Account in a chunk of its own), so 275. Issue
 * 30 cuts first loads to 20 scripts and will lower these again.
 */
const budgetsKb: Record<string, number> = {
  '/en/': 200,
  '/en/docs/development/testing': 250,
  '/en/sign-in': 275,
}

for (const [path, budgetKb] of Object.entries(budgetsKb)) {
  test(`the first visit to ${path} loads at most ${budgetKb} KB of JavaScript (gzip)`, async ({ page }) => {
    const scripts = new Map<string, Promise<number>>()
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return
      scripts.set(
        response.url(),
        response.body().then(
          (body) => gzipSync(body).byteLength,
          () => 0,
        ),
      )
    })
    await page.goto(path, { waitUntil: 'networkidle' })
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    const sizes = await Promise.all(scripts.values())
    const totalKb = sizes.reduce((sum, size) => sum + size, 0) / 1024
    const largest = [...scripts.keys()]
      .map((url, index) => `${((sizes[index] ?? 0) / 1024).toFixed(1)} KB ${new URL(url).pathname}`)
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
      .slice(0, 8)
    expect(scripts.size, 'the page loads its scripts').toBeGreaterThan(0)
    expect(
      totalKb,
      `${totalKb.toFixed(1)} KB in ${scripts.size} files; largest:\n${largest.join('\n')}`,
    ).toBeLessThanOrEqual(budgetKb)
  })
}
