import type { Locator } from '@playwright/test'
import sharp from 'sharp'
import { signUpNewAccount } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'

test.describe('profile pictures', () => {
  // The browser reports the refused SVG's 400.
  test.use({ expectedConsoleErrors: documentStatusError(400) })

  test('a photo uploaded on Account shows there and in the header; an SVG is refused; removing it brings back initials', async ({
    page,
  }) => {
    await signUpNewAccount(page)
    const picker = page.getByTestId('avatar-picker')
    const photo = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 140, b: 90 } },
    })
      .jpeg()
      .toBuffer()
    await picker
      .getByLabel('Upload a picture')
      .setInputFiles({ name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: photo })
    await expect(page.getByText('Picture saved')).toBeVisible()
    const image = page.getByTestId('avatar-image')
    await expect(image).toHaveAttribute('src', /\/api\/files\/avatars\/[^/]+\/[a-f0-9]{16}-256\.webp$/)
    // The browser loaded it: a real square picture, not a broken image.
    await expect
      .poll(() =>
        image.evaluate((element: HTMLImageElement) => [element.complete, element.naturalWidth, element.naturalHeight]),
      )
      .toEqual([true, 256, 256])
    await expect(image).toHaveAttribute('alt', 'Profile picture')
    await expect(page.getByTestId('console-user-picture')).toBeVisible()

    await picker.getByLabel('Upload a picture').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    })
    await expect(page.getByText(/is not a picture we can use.*SVG is not accepted/)).toBeVisible()
    await expect(image).toBeVisible()

    await picker.getByRole('button', { name: 'Remove picture' }).click()
    await expect(page.getByText('Picture removed')).toBeVisible()
    await expect(page.getByTestId('avatar-image')).toHaveCount(0)
    await expect(page.getByTestId('console-user-picture')).toHaveCount(0)
  })
})

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 180, g: 60, b: 40 } } })
    .png()
    .toBuffer()

/** Whether the browser loaded the image whole, and at what size. */
const loaded = (image: Locator) =>
  image.evaluate((element: HTMLImageElement) => [element.complete, element.naturalWidth, element.naturalHeight])

test.describe('an organization’s logo', () => {
  test('an organization’s logo uploaded in its settings shows in the switcher', async ({ page }) => {
    await signUpNewAccount(page)
    await visit(page, '/en/console/organization')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await page
      .getByTestId('logo-picker')
      .getByLabel('Upload a logo')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await picture(500, 500) })
    await expect(page.getByText('Logo saved')).toBeVisible()
    const logo = page.getByTestId('organization-switcher').locator('img')
    await expect(logo).toHaveAttribute('src', /\/api\/files\/logos\/[^/]+\/[a-f0-9]{16}-256\.webp$/)
    await expect.poll(() => loaded(logo)).toEqual([true, 256, 256])
    await page.getByTestId('logo-picker').getByRole('button', { name: 'Remove logo' }).click()
    await expect(page.getByText('Logo removed')).toBeVisible()
    await expect(logo).toHaveCount(0)
  })
})
