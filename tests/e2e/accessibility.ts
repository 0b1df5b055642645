// The accessibility check every page gets (tests/e2e/accessibility.spec.ts for the core's, an app's own spec for its
// pages): axe's serious and critical findings, in both languages and both themes.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { signInAsAppAdmin } from './accounts'
import { expect, visit } from './fixtures'

/**
 * Serious and critical WCAG 2.1 A/AA (and best-practice) violations on the page as it is now, one line each. The dark
 * theme changes colours only, the same elements and names in the same places: there the rules that read colours run.
 */
export async function seriousViolations(page: Page, theme: 'light' | 'dark'): Promise<string[]> {
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
export function groupsOf(paths: string[], size: number): string[][] {
  return Array.from({ length: Math.ceil(paths.length / size) }, (_, index) =>
    paths.slice(index * size, (index + 1) * size),
  )
}

// Every page in both languages with every rule, light theme. The dark theme only changes colours, and colours do not
// depend on the language: its colour rules run in English only (a fourth pass took CI past its time budget).
export const accessibilityPasses = [
  { lang: 'en', theme: 'light' },
  { lang: 'zh', theme: 'light' },
  { lang: 'en', theme: 'dark' },
] as const

/**
 * Visits each page in the language and theme (signed in as the app admin where asked) and fails listing every serious
 * finding. Called from a spec's own test, so the report names the spec.
 */
export async function expectNothingSerious(
  page: Page,
  { lang, theme, paths, signedIn }: { lang: 'en' | 'zh'; theme: 'light' | 'dark'; paths: string[]; signedIn: boolean },
): Promise<void> {
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
}
