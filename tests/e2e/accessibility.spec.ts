import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { signInAsAppAdmin } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'

// The unknown page among them answers 404, which the browser reports in the console.
test.use({ expectedConsoleErrors: documentStatusError(404) })

const publicPages = [
  '/',
  '/docs',
  '/docs/development/testing', // code blocks in both shiki themes, tabs, callouts
  '/docs/billing',
  '/blog',
  '/blog/introducing-hatch',
  '/changelog',
  '/sign-in',
  '/sign-up',
  '/forgot-password',
  '/no-such-page',
]
const consolePages = [
  '/console',
  '/console/books',
  '/console/configuration',
  '/console/users',
  '/console/account',
  '/console/organization',
  '/console/organization/members',
  '/console/organization/invitations',
  '/console/organization/teams',
  '/console/organization/roles',
  '/console/organization/activity',
  '/console/organization/webhooks',
  '/console/organization/billing',
  '/console/organization/sso',
  '/my-orders',
]

/**
 * Serious and critical WCAG 2.1 A/AA (and best-practice) violations on the page as it is now, one line each. The dark
 * theme changes colours only, the same elements and names in the same places: there the rules that read colours run.
 */
async function seriousViolations(page: Page, theme: 'light' | 'dark'): Promise<string[]> {
  const axe = new AxeBuilder({ page })
  const { violations } = await (theme === 'light'
    ? axe.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    : axe.withRules(['color-contrast', 'link-in-text-block'])
  ).analyze()
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} (${node.failureSummary ?? ''})`),
    )
}

/** Pages in groups small enough for one test each, so the two workers share them. */
function groupsOf(paths: string[], size: number): string[][] {
  return Array.from({ length: Math.ceil(paths.length / size) }, (_, index) =>
    paths.slice(index * size, (index + 1) * size),
  )
}

test.describe.configure({ mode: 'parallel' })

// Every page in both languages with every rule, light theme. The dark theme only changes colours, and colours do not
// depend on the language: its colour rules run in English only (a fourth pass took CI past its time budget).
const passes = [
  { lang: 'en', theme: 'light' },
  { lang: 'zh', theme: 'light' },
  { lang: 'en', theme: 'dark' },
] as const

for (const { lang, theme } of passes) {
  const groups = [
    ...groupsOf(publicPages, 4).map((paths) => ({ paths, signedIn: false })),
    ...groupsOf(consolePages, 5).map((paths) => ({ paths, signedIn: true })),
  ]
  for (const { paths, signedIn } of groups) {
    test(`axe finds nothing serious in ${lang}, ${theme} theme: ${paths.join(' ')}`, async ({ page }) => {
      test.setTimeout(120_000)
      await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme)
      if (signedIn) await signInAsAppAdmin(page, lang)
      const found: Record<string, string[]> = {}
      for (const path of paths) {
        await visit(page, `/${lang}${path}`)
        await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`))
        const violations = await seriousViolations(page, theme)
        if (violations.length > 0) found[path] = violations
      }
      expect(found, 'no serious or critical accessibility violations').toEqual({})
    })
  }
}
