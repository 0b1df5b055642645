import type { Page } from '@playwright/test'
import { expect } from './fixtures'

/** The console's organization switcher, at the top of its navigation. */
export const switcher = (page: Page) => page.getByTestId('organization-switcher')

/** Creates an organization from the switcher, as a person would; it becomes the active one. */
export async function createOrganization(page: Page, name: string) {
  await switcher(page).click()
  await page.getByRole('menuitem', { name: 'Create organization' }).click()
  const form = page.getByRole('form', { name: 'Create organization' })
  await form.getByLabel('Name', { exact: true }).fill(name)
  await expect(form.getByLabel('Slug')).not.toHaveValue('')
  await form.getByRole('button', { name: 'Create' }).click()
  await expect(switcher(page)).toContainText(name)
}
