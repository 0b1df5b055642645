import { accessibilityPasses, expectNothingSerious, groupsOf } from './accessibility'
import { documentStatusError, test } from './fixtures'

// The unknown page among them answers 404, which the browser reports in the console.
test.use({ expectedConsoleErrors: documentStatusError(404) })

const publicPages = [
  '/',
  '/docs',
  '/docs/development/testing', // code blocks in both shiki themes, tabs, callouts
  '/sign-in',
  '/sign-up',
  '/forgot-password',
  '/no-such-page',
]
const consolePages = [
  '/console',
  '/console/configuration',
  '/console/users',
  '/console/account',
  '/console/organization',
  '/console/organization/members',
  '/console/organization/invitations',
  '/console/organization/teams',
  '/console/organization/roles',
  '/console/organization/activity',
]

test.describe.configure({ mode: 'parallel' })

for (const { lang, theme } of accessibilityPasses) {
  const groups = [
    ...groupsOf(publicPages, 4).map((paths) => ({ paths, signedIn: false })),
    ...groupsOf(consolePages, 5).map((paths) => ({ paths, signedIn: true })),
  ]
  for (const { paths, signedIn } of groups) {
    test(`axe finds nothing serious in ${lang}, ${theme} theme: ${paths.join(' ')}`, async ({ page }) => {
      test.setTimeout(120_000)
      await expectNothingSerious(page, { lang, theme, paths, signedIn })
    })
  }
}
