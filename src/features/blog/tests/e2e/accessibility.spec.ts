// The blog's pages get the check every page of the site gets (tests/e2e/accessibility.spec.ts): nothing serious for
// axe, in both languages and both themes.
import { accessibilityPasses, expectNothingSerious } from '../../../../../tests/e2e/accessibility'
import { test } from '../../../../../tests/e2e/fixtures'

const paths = ['/blog', '/blog/introducing-hatch', '/changelog']

test.describe.configure({ mode: 'parallel' })

for (const { lang, theme } of accessibilityPasses) {
  test(`axe finds nothing serious in ${lang}, ${theme} theme: ${paths.join(' ')}`, async ({ page }) => {
    test.setTimeout(120_000)
    await expectNothingSerious(page, { lang, theme, paths, signedIn: false })
  })
}
