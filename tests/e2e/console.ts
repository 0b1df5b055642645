import type { Page } from '@playwright/test'
import { expect, visit } from './fixtures'

/** The header's organization menu button; its text is the active organization's name. */
export const organizationSwitcher = (page: Page) => page.getByTestId('organization-switcher')

/** The switcher names the active organization (its text also holds the avatar's initials, so read its label). */
export async function expectActiveOrganization(
  page: Page,
  name: string,
  label = `Organization: ${name}. Switch organization`,
) {
  await expect(organizationSwitcher(page)).toHaveAccessibleName(label)
}

/** The console's sections (the sidebar on wide screens). */
export const consoleNav = (page: Page, name = 'Console') => page.getByRole('navigation', { name }).first()

/** A row of the Members page, found by the member's name. */
export const memberRow = (page: Page, name: string) => page.getByTestId('member-row').filter({ hasText: name })

/** Creates an organization from the switcher (the slug follows the name) and waits until it is the active one. */
export async function createOrganization(page: Page, name: string, slug?: string) {
  await organizationSwitcher(page).click()
  await page.getByRole('menuitem', { name: 'Create organization' }).click()
  const form = page.getByRole('form', { name: 'Create organization' })
  await form.getByLabel('Name', { exact: true }).fill(name)
  if (slug) await form.getByLabel('Slug', { exact: true }).fill(slug)
  await form.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expectActiveOrganization(page, name)
}

/** Invites someone from the Invitations page and waits for the pending row. */
export async function inviteByEmail(page: Page, email: string, role = 'Member') {
  await visit(page, '/en/console/organization/invitations')
  const form = page.getByRole('form', { name: 'Invite someone' })
  await form.getByLabel('Email', { exact: true }).fill(email)
  await form.getByLabel('Role', { exact: true }).selectOption({ label: role })
  await form.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible()
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toBeVisible()
}
