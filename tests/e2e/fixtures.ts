import { test as base, expect, type Page } from '@playwright/test'

interface Options {
  /** Console errors a test expects, e.g. the browser's own report of a 404 document (one pattern: Playwright reads an array as [value, options]). */
  expectedConsoleErrors: RegExp | null
}

/** Every page fails its test on a console error or uncaught exception (hydration mismatches included). */
export const test = base.extend<Options>({
  expectedConsoleErrors: [null, { option: true }],
  page: async ({ page, expectedConsoleErrors }, use) => {
    const problems: string[] = []
    page.on('console', (message) => {
      // The page's address says which page broke when a test walks through several.
      if (message.type() === 'error') problems.push(`console.error on ${page.url()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`uncaught on ${page.url()}: ${error.message}`))
    await use(page)
    const unexpected = problems.filter((problem) => !expectedConsoleErrors?.test(problem))
    expect(unexpected, 'the browser console stayed free of errors').toEqual([])
  },
})

export { expect }

/** The browser reports a document answered with an error status; on error screens that is the point. */
export const documentStatusError = (status: number, ...alsoExpected: RegExp[]) =>
  new RegExp([`status of ${status}`, ...alsoExpected.map((pattern) => pattern.source)].join('|'))

/** Opens a page and waits until React has hydrated it, so a click is never lost on server-rendered HTML. */
export async function visit(page: Page, url: string) {
  const response = await page.goto(url)
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  return response
}
