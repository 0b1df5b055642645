import { readFileSync } from 'node:fs'
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

test.describe('a book’s files', () => {
  // The browser reports the refused file's 400.
  test.use({ expectedConsoleErrors: documentStatusError(400) })

  test('a cover uploaded on the book page shows there and in the list; a PDF is attached, downloaded and deleted; a forged file is refused', async ({
    page,
  }) => {
    await signUpNewAccount(page)
    await visit(page, '/en/console/books')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await page.getByRole('button', { name: 'New book' }).first().click()
    const form = page.getByRole('form', { name: 'New book' })
    await form.getByLabel('Title', { exact: true }).fill('Cover Story')
    await form.getByRole('button', { name: 'Save' }).click()
    await page.getByTestId('book-row').getByRole('link', { name: 'Cover Story' }).click()
    await expect(page).toHaveURL(/\/en\/console\/books\/[^/]+$/)

    await page
      .getByTestId('book-cover-actions')
      .getByLabel('Upload a cover')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await picture(600, 900) })
    await expect(page.getByText('Cover saved')).toBeVisible()
    const cover = page.getByRole('img', { name: 'Cover of Cover Story' })
    await expect(cover).toHaveAttribute('src', /\/api\/files\/organizations\/.+\/320\.webp\?expires=/)
    await expect.poll(() => loaded(cover)).toEqual([true, 320, 480])
    await expect(page.getByRole('button', { name: 'Remove cover' })).toBeVisible()

    const attachments = page.getByTestId('book-attachments')
    await expect(attachments).toContainText('No attachments yet.')
    await expect(attachments).toContainText('PDF, PNG, JPEG, WebP, GIF or AVIF, up to 5 MB each on your plan.')
    const minutes = Buffer.from('%PDF-1.7\n% the minutes of the book club\n%%EOF\n')
    await attachments
      .getByLabel('Attach a file')
      .setInputFiles({ name: 'Minutes 纪要.pdf', mimeType: 'application/pdf', buffer: minutes })
    await expect(page.getByText('Attached Minutes 纪要.pdf')).toBeVisible()
    await expect(attachments.getByTestId('book-attachment')).toContainText('Minutes 纪要.pdf')
    const downloading = page.waitForEvent('download')
    await attachments.getByRole('button', { name: 'Download Minutes 纪要.pdf' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe('Minutes 纪要.pdf')
    expect(readFileSync(await download.path()).toString()).toContain('the minutes of the book club')

    await attachments.getByLabel('Attach a file').setInputFiles({
      name: 'photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<html><script>alert(1)</script></html>'),
    })
    await expect(page.getByText('Attach a PDF or an image')).toBeVisible()
    await expect(attachments.getByTestId('book-attachment')).toHaveCount(1)
    // The toasts sit over the list's right-hand buttons for their four seconds: wait them out, as a person would.
    await expect(page.getByRole('button', { name: 'Close toast' })).toHaveCount(0, { timeout: 15_000 })

    await attachments.getByRole('button', { name: 'Delete Minutes 纪要.pdf' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(page.getByText('Deleted Minutes 纪要.pdf')).toBeVisible()
    await expect(attachments).toContainText('No attachments yet.')

    await visit(page, '/en/console/books')
    const thumbnail = page.getByTestId('book-row').filter({ hasText: 'Cover Story' }).locator('img')
    await expect(thumbnail).toHaveAttribute('src', /\/96\.webp\?expires=/)
    await expect.poll(() => loaded(thumbnail)).toEqual([true, 96, 144])
  })

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
