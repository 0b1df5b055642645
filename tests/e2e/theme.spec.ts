import { expect, test, visit } from './fixtures'

/** Records the <html> class from the very start of the document, to catch a flash of the wrong theme. */
async function recordThemeClasses(page: import('@playwright/test').Page) {
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { themeClassesSeen: string[] }).themeClassesSeen = seen
    // The init script runs before <html> exists: watch the whole document and note every class <html> gets.
    new MutationObserver(() => {
      const current = document.documentElement?.className ?? ''
      if (seen.at(-1) !== current) seen.push(current)
    }).observe(document, { attributes: true, attributeFilter: ['class'], childList: true, subtree: true })
    // The first animation frame comes before the first paint: the class must already be right.
    requestAnimationFrame(() => seen.push(`first-frame:${document.documentElement.className}`))
  })
}

test.describe('themes', () => {
  test('a first visit follows the operating system: dark when it prefers dark, light when it prefers light', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await visit(page, '/en/')
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    await page.getByRole('button', { name: 'Theme' }).click()
    await expect(page.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true')
    await page.keyboard.press('Escape')

    await page.emulateMedia({ colorScheme: 'light' })
    await visit(page, '/zh/')
    await expect(page.locator('html')).toHaveClass(/\blight\b/)
    await page.getByRole('button', { name: '主题' }).click()
    await expect(page.getByRole('menuitemradio', { name: '跟随系统' })).toHaveAttribute('aria-checked', 'true')
  })

  test('a visitor who chose Light keeps it when the operating system prefers dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await visit(page, '/en/')
    await page.getByRole('button', { name: 'Theme' }).click()
    await page.getByRole('menuitemradio', { name: 'Light' }).click()
    await expect(page.locator('html')).toHaveClass(/\blight\b/)
    await visit(page, '/en/')
    await expect(page.locator('html')).toHaveClass(/\blight\b/)
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
  })

  test('a chosen theme survives a reload with no flash: the class is there at the first frame', async ({ page }) => {
    await visit(page, '/en/')
    await page.getByRole('button', { name: 'Theme' }).click()
    await page.getByRole('menuitemradio', { name: 'Dark' }).click()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')

    await recordThemeClasses(page)
    await page.reload()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    const seen = await page.evaluate(() => (window as unknown as { themeClassesSeen: string[] }).themeClassesSeen)
    expect(seen.find((entry) => entry.startsWith('first-frame:'))).toMatch(/\bdark\b/)
    expect(seen.filter((entry) => /\blight\b/.test(entry))).toEqual([])
  })

  test('System follows the operating system live, without a reload', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' })
    await visit(page, '/en/')
    await page.getByRole('button', { name: 'Theme' }).click()
    await page.getByRole('menuitemradio', { name: 'System' }).click()
    await expect(page.locator('html')).toHaveClass(/\blight\b/)
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    await page.emulateMedia({ colorScheme: 'light' })
    await expect(page.locator('html')).toHaveClass(/\blight\b/)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('system')
  })

  test('the menu is translated and marks the current choice', async ({ page }) => {
    await visit(page, '/zh/')
    await page.getByRole('button', { name: '主题' }).click()
    await expect(page.getByRole('menuitemradio', { name: '跟随系统' })).toHaveAttribute('aria-checked', 'true')
    await page.getByRole('menuitemradio', { name: '深色' }).click()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  })
})
