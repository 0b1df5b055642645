// The Books page gets the checks every console page gets (tests/e2e/accessibility.spec.ts): nothing serious for axe in
// both languages and themes.

import { accessibilityPasses, expectNothingSerious } from '../../../../../tests/e2e/accessibility'
import { test } from '../../../../../tests/e2e/fixtures'

const paths = ['/console/books']

test.describe.configure({ mode: 'parallel' })

for (const { lang, theme } of accessibilityPasses) {
  test(`axe finds nothing serious in ${lang}, ${theme} theme: ${paths.join(' ')}`, async ({ page }) => {
    test.setTimeout(120_000)
    await expectNothingSerious(page, { lang, theme, paths, signedIn: true })
  })
}
