import { accessibilityPasses, expectNothingSerious } from '../../../../../tests/e2e/accessibility'
import { test } from '../../../../../tests/e2e/fixtures'

test.describe.configure({ mode: 'parallel' })

for (const { lang, theme } of accessibilityPasses) {
  test(`axe finds nothing serious on billing's pages in ${lang}, ${theme} theme`, async ({ page }) => {
    test.setTimeout(120_000)
    await expectNothingSerious(page, { lang, theme, paths: ['/docs/billing'], signedIn: false })
    await expectNothingSerious(page, {
      lang,
      theme,
      paths: ['/console/organization/billing', '/my-orders'],
      signedIn: true,
    })
  })
}
