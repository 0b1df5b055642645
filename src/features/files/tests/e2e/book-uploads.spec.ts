import type { Locator, Page } from '@playwright/test'
import sharp from 'sharp'
import { signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

// Sending a book's cover and attachments as a person with a phone's photos does: the photo is made smaller in the
// browser, a file the plan refuses is refused before it is sent, the upload shows how far it has got, and an image
// attachment shows a picture of itself in the list.

/** A new book's page, for a new account on the free plan (5 MB a file). */
async function newBookPage(page: Page, title: string) {
  await signUpNewAccount(page)
  await visit(page, '/en/console/books')
  await page.getByRole('button', { name: 'New book' }).first().click()
  const form = page.getByRole('form', { name: 'New book' })
  await form.getByLabel('Title', { exact: true }).fill(title)
  await form.getByRole('button', { name: 'Save' }).click()
  await page.getByTestId('book-row').getByRole('link', { name: title }).click()
  await expect(page).toHaveURL(/\/en\/console\/books\/[^/]+$/)
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}

/** Every upload the page sends, by address. */
function uploadsSent(page: Page): string[] {
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('/api/uploads/')) sent.push(`${request.method()} ${new URL(request.url()).pathname}`)
  })
  return sent
}

const loaded = (image: Locator) =>
  image.evaluate((element: HTMLImageElement) => [element.complete, element.naturalWidth, element.naturalHeight])

/** A file of `bytes` that says it is a PDF. */
const pdfOf = (bytes: number) => {
  const body = Buffer.alloc(bytes, 0x20)
  body.write('%PDF-1.7\n', 0)
  return body
}

test('a 9.7 MB phone photo becomes the cover: made smaller in the browser, within the plan’s 5 MB', async ({
  page,
}) => {
  await newBookPage(page, 'Big Photo')
  const actions = page.getByTestId('book-cover-actions')
  await expect(actions).toContainText('JPEG, PNG, WebP, GIF or AVIF, up to 5 MB on your plan.')
  // Noise does not compress: as heavy as a phone's photo.
  const photo = await sharp({
    create: {
      width: 1800,
      height: 1800,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer()
  expect(photo.byteLength).toBeGreaterThan(9.5 * 1024 * 1024)
  const sending = page.waitForRequest((request) => request.url().endsWith('/cover'))
  await actions
    .getByLabel('Upload a cover')
    .setInputFiles({ name: 'IMG_2041.png', mimeType: 'image/png', buffer: photo })
  const sent = await sending
  expect(sent.postDataBuffer()?.byteLength ?? 0, 'what left the browser').toBeLessThan(1024 * 1024)
  await expect(page.getByText('Cover saved')).toBeVisible()
  const cover = page.getByRole('img', { name: 'Cover of Big Photo' })
  await expect(cover).toHaveAttribute('src', /\/320\.webp\?expires=/)
  await expect.poll(() => loaded(cover)).toEqual([true, 320, 480])
})

test('a file past the plan’s size, or of a type not taken, is refused before anything is sent', async ({ page }) => {
  await newBookPage(page, 'Too Big')
  const sent = uploadsSent(page)
  const attachments = page.getByTestId('book-attachments')
  await expect(attachments).toContainText('PDF, PNG, JPEG, WebP, GIF or AVIF, up to 5 MB each on your plan.')
  const picker = attachments.getByLabel('Attach a file')
  await expect(picker).toHaveAccessibleDescription(/up to 5 MB each on your plan/)

  await picker.setInputFiles({ name: 'Scans.pdf', mimeType: 'application/pdf', buffer: pdfOf(6 * 1024 * 1024) })
  await expect(page.getByText('Scans.pdf is 6 MB. Files can be at most 5 MB on your plan')).toBeVisible()
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') })
  await expect(page.getByText('Attach a PDF or an image')).toBeVisible()
  await page
    .getByTestId('book-cover-actions')
    .getByLabel('Upload a cover')
    .setInputFiles({ name: 'cover.heic', mimeType: 'image/heic', buffer: Buffer.from('not decodable here') })
  await expect(page.getByText('This file is not a picture we can use')).toBeVisible()

  await expect(attachments).toContainText('No attachments yet.')
  expect(sent, 'no upload left the page').toEqual([])
})

test('an upload shows how far it has got and can be cancelled; an attached image shows its picture', async ({
  page,
}) => {
  await newBookPage(page, 'Slow Line')
  const sent = uploadsSent(page)
  const attachments = page.getByTestId('book-attachments')
  // A slow line: 4.5 MB takes several seconds to leave.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  })
  const picker = attachments.getByLabel('Attach a file')
  await picker.setInputFiles({ name: 'Slides.pdf', mimeType: 'application/pdf', buffer: pdfOf(4.5 * 1024 * 1024) })
  const bar = attachments.getByRole('progressbar', { name: 'Uploading Slides.pdf' })
  await expect(bar).toBeVisible()
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(10)
  await attachments.getByRole('button', { name: 'Cancel the upload' }).click()
  await expect(page.getByText('Upload of Slides.pdf cancelled')).toBeVisible()
  await expect(bar).toHaveCount(0)
  await expect(attachments).toContainText('No attachments yet.')

  const seen: number[] = []
  await picker.setInputFiles({ name: 'Minutes.pdf', mimeType: 'application/pdf', buffer: pdfOf(3 * 1024 * 1024) })
  const next = attachments.getByRole('progressbar', { name: 'Uploading Minutes.pdf' })
  await expect
    .poll(async () => {
      const now = await next.getAttribute('aria-valuenow', { timeout: 100 }).catch(() => null)
      if (now !== null) seen.push(Number(now))
      return seen.filter((value) => value > 0 && value < 100).length
    })
    .toBeGreaterThan(1)
  await expect(page.getByText('Attached Minutes.pdf')).toBeVisible()
  expect(seen, 'the share sent only went up').toEqual([...seen].sort((a, b) => a - b))
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  })

  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer()
  await picker.setInputFiles({ name: 'Shelf.jpg', mimeType: 'image/jpeg', buffer: photo })
  await expect(page.getByText('Attached Shelf.jpg')).toBeVisible()
  const thumbnail = attachments.getByRole('img', { name: 'Picture of Shelf.jpg' })
  await expect.poll(() => loaded(thumbnail)).toEqual([true, 96, 96])
  const pdfRow = attachments.getByTestId('book-attachment').filter({ hasText: 'Minutes.pdf' })
  await expect(pdfRow.getByRole('img')).toHaveCount(0)
  expect(sent.filter((request) => request.endsWith('/attachments'))).toHaveLength(3)
})
