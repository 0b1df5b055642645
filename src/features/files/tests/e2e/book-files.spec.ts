import { readFileSync } from 'node:fs'
import type { Locator } from '@playwright/test'
import sharp from 'sharp'
import { signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { documentStatusError, expect, test, visit } from '../../../../../tests/e2e/fixtures'

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
    // The toasts sit over the list's right-hand buttons for their four seconds: wait them out, as a person would. A
    // pointer resting on them (the last click was below them) holds them open, so it moves away first.
    await page.mouse.move(0, 0)
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
})
