// The webhooks page gets the checks every console page gets (tests/e2e/accessibility.spec.ts and
// organization-pages-rendered.spec.ts): nothing serious for axe in both languages and themes, and rendered by the
// server, with nothing left at "Loading…" for a script.

import { accessibilityPasses, expectNothingSerious } from '../../../../../tests/e2e/accessibility'
import { signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { expect, test } from '../../../../../tests/e2e/fixtures'

const paths = ['/console/organization/webhooks']

test.describe.configure({ mode: 'parallel' })

for (const { lang, theme } of accessibilityPasses) {
  test(`axe finds nothing serious in ${lang}, ${theme} theme: ${paths.join(' ')}`, async ({ page }) => {
    test.setTimeout(120_000)
    await expectNothingSerious(page, { lang, theme, paths, signedIn: true })
  })
}

test('the webhooks page arrives rendered, with no "Loading…" waiting for a script', async ({ page, browser }) => {
  await signUpNewAccount(page)
  const noScripts = await browser.newContext({ javaScriptEnabled: false })
  await noScripts.addCookies(await page.context().cookies())
  const rendered = await noScripts.newPage()
  await rendered.goto('/en/console/organization/webhooks')
  await expect(rendered.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible()
  await expect(rendered.getByText('Loading…')).toHaveCount(0)
  await noScripts.close()
})
