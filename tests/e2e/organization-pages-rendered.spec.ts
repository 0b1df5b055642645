import { signUpNewAccount } from './accounts'
import { expect, test } from './fixtures'

// Every organization page has its data from its loader, so the server's HTML already shows it: with scripts off, no
// page is left at "Loading…" (issue 29).
test('the organization pages arrive rendered, with no "Loading…" waiting for a script', async ({ page, browser }) => {
  await signUpNewAccount(page)
  // A team, so the Teams page has cards, each with its members, to render.
  const origin = new URL(page.url()).origin
  const team = await page.request.post('/api/auth/organization/create-team', {
    headers: { origin },
    data: { name: 'Night shift' },
  })
  expect(team.status(), await team.text()).toBe(200)
  const cookies = await page.context().cookies()
  const noScripts = await browser.newContext({ javaScriptEnabled: false })
  await noScripts.addCookies(cookies)
  const rendered = await noScripts.newPage()
  for (const { path, heading } of [
    { path: '/en/console/organization', heading: 'Organization settings' },
    { path: '/en/console/organization/members', heading: 'Members' },
    { path: '/en/console/organization/invitations', heading: 'Invitations' },
    { path: '/en/console/organization/teams', heading: 'Teams' },
    { path: '/en/console/organization/roles', heading: 'Roles' },
    { path: '/en/console/organization/activity', heading: 'Activity' },
  ]) {
    await rendered.goto(path)
    await expect(rendered.getByRole('heading', { level: 1, name: heading }), path).toBeVisible()
    await expect(rendered.getByText('Loading…'), path).toHaveCount(0)
  }
  await rendered.goto('/en/console/organization/teams')
  await expect(rendered.getByText('Night shift').first()).toBeVisible()
  await noScripts.close()
})
