import type { Locator } from '@playwright/test'
import sharp from 'sharp'
import { newAccount, signInAsAppAdmin, signUpNewAccount } from './accounts'
import { expect, test, visit } from './fixtures'

const photo = async (background: { r: number; g: number; b: number }) => ({
  name: 'photo.jpg',
  mimeType: 'image/jpeg',
  buffer: await sharp({ create: { width: 900, height: 600, channels: 3, background } })
    .jpeg()
    .toBuffer(),
})

/** The picture's address, once the browser has loaded it whole (not a broken image). */
async function loadedSource(image: Locator): Promise<string> {
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0))
    .toBe(true)
  return (await image.getAttribute('src')) ?? ''
}

test('one picture control each: a person’s picture and their organization’s logo show wherever they appear', async ({
  page,
  browser,
}) => {
  test.slow() // one long story: the account, the organization, its lists, then an app admin's Users
  const account = await signUpNewAccount(page, newAccount({ name: 'Katherine Johnson' }))

  // Account → Profile: the picture is uploaded, never typed in as an address, and its limits are written beside it.
  const profile = page.getByRole('form', { name: 'Profile' })
  await expect(profile.getByRole('textbox')).toHaveCount(2)
  await expect(page.getByLabel(/image URL|picture address/i)).toHaveCount(0)
  const pictureControl = page.getByRole('group', { name: 'Profile picture' })
  await expect(pictureControl).toContainText('JPEG, PNG, GIF, WebP or AVIF')
  await expect(pictureControl).toContainText('512 × 512 px')
  await expect(pictureControl).toContainText('1 MB')
  await pictureControl.getByLabel('Upload a picture').setInputFiles(await photo({ r: 20, g: 90, b: 160 }))
  await expect(page.getByText('Picture saved')).toBeVisible()
  await expect(pictureControl.getByRole('button', { name: 'Change picture' })).toBeVisible()
  const picture = await loadedSource(page.getByTestId('avatar-image'))
  expect(picture).toMatch(/\/api\/files\/avatars\/[^/]+\/[a-f0-9]{16}-256\.webp$/)

  // The account menu: on its button and beside the name inside.
  await expect(page.getByTestId('console-user').locator('img')).toHaveAttribute('src', picture)
  await page.getByTestId('console-user').click()
  await expect(page.getByTestId('switcher-current').locator('img')).toHaveAttribute('src', picture)
  await page.keyboard.press('Escape')

  // The members list shows the picture, not initials.
  await visit(page, '/en/console/organization/members')
  const member = page.getByTestId('member-row').filter({ hasText: account.name })
  expect(await loadedSource(member.getByTestId('member-picture'))).toBe(picture)

  // Organization settings: the same one control for the logo, and no address field.
  await visit(page, '/en/console/organization')
  await expect(page.getByRole('form', { name: 'Details' }).getByRole('textbox')).toHaveCount(2)
  await expect(page.getByLabel(/image URL|logo \(/i)).toHaveCount(0)
  const logoControl = page.getByRole('group', { name: 'Logo' })
  await expect(logoControl).toContainText('512 × 512 px')
  await logoControl.getByLabel('Upload a logo').setInputFiles(await photo({ r: 200, g: 120, b: 20 }))
  await expect(page.getByText('Logo saved')).toBeVisible()
  await expect(logoControl.getByRole('button', { name: 'Change logo' })).toBeVisible()
  const switcher = page.getByTestId('organization-switcher')
  const logo = await loadedSource(switcher.locator('img'))
  expect(logo).toMatch(/\/api\/files\/logos\/[^/]+\/[a-f0-9]{16}-256\.webp$/)
  await switcher.click()
  await expect(page.getByTestId('organization-option').locator('img')).toHaveAttribute('src', logo)
  await page.keyboard.press('Escape')

  // The activity log shows who changed the logo with their picture.
  await visit(page, '/en/console/organization/activity')
  const entry = page.getByTestId('activity-row').filter({ hasText: `${account.name} updated the organization` })
  expect(await loadedSource(entry.first().getByTestId('activity-actor-picture'))).toBe(picture)

  // An app admin sees the same picture in Console → Users and on the person's page.
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signInAsAppAdmin(admin)
  await visit(admin, '/en/console/users')
  await admin.getByRole('searchbox').fill(account.email)
  const row = admin.getByTestId('user-row').filter({ hasText: account.name })
  await expect(admin.getByTestId('user-row')).toHaveCount(1)
  expect(await loadedSource(row.getByTestId('user-picture'))).toBe(picture)
  await row.getByRole('link', { name: account.name }).click()
  expect(await loadedSource(admin.getByTestId('user-details-picture'))).toBe(picture)
  await adminContext.close()
})
