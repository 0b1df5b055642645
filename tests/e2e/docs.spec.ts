import { documentStatusError, expect, test, visit } from './fixtures'

test.describe('docs pages', () => {
  test('the index and a nested page render in English and Chinese, with per-page titles', async ({ page }) => {
    await visit(page, '/en/docs')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Introduction')
    await expect(page).toHaveTitle('Introduction – Hatch')
    await expect(page.locator('#nd-sidebar').getByTestId('docs-site-title')).toHaveText('Hatch en')

    await visit(page, '/zh/docs')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('简介')
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh')

    await visit(page, '/en/docs/development/testing')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Testing')
    await visit(page, '/zh/docs/development/testing')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('测试')
    await expect(page.getByText('本页目录')).toBeVisible()
  })

  test('shows breadcrumbs, an Edit on GitHub link, the last update, and no previous/next cards by default', async ({
    page,
  }) => {
    await visit(page, '/en/docs/development/testing')
    await expect(page.locator('#nd-page').getByText('Development', { exact: true }).first()).toBeVisible()
    const edit = page.getByRole('link', { name: 'Edit on GitHub' })
    await expect(edit).toHaveAttribute(
      'href',
      'https://github.com/hatch-dev/hatch/blob/main/content/docs/(guide)/development/testing.mdx',
    )
    // The date in the page's language, whatever the browser's: written by the server.
    await expect(page.getByText(/^Last updated on [A-Z][a-z]+ \d{1,2}, \d{4}$/)).toBeVisible()
    await expect(page.getByText('Next Page')).toHaveCount(0)
    await visit(page, '/zh/docs/development/testing')
    await expect(page.getByText(/^最后更新于 \d{4}年\d{1,2}月\d{1,2}日$/)).toBeVisible()
  })

  test('switches sidebar tabs between the root folders', async ({ page }) => {
    await visit(page, '/en/docs')
    const sidebar = page.locator('#nd-sidebar')
    await expect(sidebar.getByRole('link', { name: 'Workspace' })).toBeVisible()
    await sidebar.getByRole('button', { name: /Guide/ }).click()
    await page.getByRole('link', { name: /Operations/ }).click()
    await expect(page).toHaveURL(/\/en\/docs\/configuration$/)
    await expect(sidebar.getByRole('link', { name: 'Database' })).toBeVisible()
    await expect(sidebar.getByRole('link', { name: 'Workspace' })).toHaveCount(0)
  })

  test('opens folders to the default level, and the folder of the current page', async ({ page }) => {
    const sidebar = page.locator('#nd-sidebar')
    await visit(page, '/en/docs')
    // "Development" is a first-level folder: open. "Recipes" sits inside it: closed.
    await expect(sidebar.getByRole('link', { name: 'Testing' })).toBeVisible()
    await expect(sidebar.getByRole('link', { name: 'Add a procedure' })).toBeHidden()

    await visit(page, '/en/docs/development/recipes/add-a-procedure')
    const current = sidebar.getByRole('link', { name: 'Add a procedure' })
    await expect(current).toBeVisible()
    await expect(current).toHaveAttribute('data-active', 'true')
  })

  test('table of contents links scroll to their headings', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 })
    await visit(page, '/en/docs/development/testing')
    const toc = page.locator('#nd-toc')
    await toc.getByRole('link', { name: 'No console errors' }).click()
    await expect(page).toHaveURL(/#no-console-errors$/)
    await expect(page.getByRole('heading', { name: 'No console errors' })).toBeInViewport()
  })

  test('on a phone: top bar, sidebar drawer, and a TOC popover that says No Headings when there are none', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 })
    await visit(page, '/en/docs/development/recipes')
    const header = page.locator('#nd-subnav')
    await expect(header).toBeVisible()
    await expect(header.getByRole('button', { name: 'Open search' })).toBeVisible()

    const popoverTrigger = page.locator('[data-toc-popover-trigger]')
    // A click that lands while the page is still settling can be lost on a busy machine: try again until it opens.
    await expect(async () => {
      await popoverTrigger.click()
      await expect(page.getByText('No Headings')).toBeVisible({ timeout: 1500 })
    }).toPass({ timeout: 15_000 })
    await page.mouse.click(350, 700) // outside the popover
    await expect(page.getByText('No Headings')).toBeHidden()

    await header.getByRole('button', { name: 'Open sidebar' }).click()
    const drawer = page.locator('#nd-sidebar-mobile')
    await expect(drawer).toBeVisible()
    const width = await drawer.evaluate((element) => element.getBoundingClientRect().width)
    expect(width).toBeCloseTo(375 * 0.85, 0)
  })

  test('the copy button copies the code and says Copied Text for a moment', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    await visit(page, '/en/docs')
    const block = page.locator('figure').filter({ hasText: 'npm install && npm start' })
    // The clipboard only accepts writes from a focused page; on a busy machine focus can arrive late.
    await page.bringToFront()
    await expect(async () => {
      await block.hover()
      await block.getByRole('button', { name: /^Cop(y|ied) Text$/ }).click()
      await expect(block.getByRole('button', { name: 'Copied Text' })).toBeVisible({ timeout: 1000 })
    }).toPass({ timeout: 15_000 })
    expect((await page.evaluate(() => navigator.clipboard.readText())).trim()).toBe('npm install && npm start')
    await expect(block.getByRole('button', { name: 'Copy Text' })).toBeVisible({ timeout: 3000 })
  })

  test('code blocks are highlighted on the server, before any script runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/en/docs/development/recipes/add-a-procedure')
    const highlighted = page.locator('pre span[style*="--shiki-light"]')
    expect(await highlighted.count()).toBeGreaterThan(10)
    await context.close()
  })

  test('the sidebar theme group and the header menu share one theme', async ({ page }) => {
    await visit(page, '/en/docs')
    const group = page.getByTestId('sidebar-theme-switch')
    await group.getByRole('button', { name: 'Dark' }).click()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    await expect(group.getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true')
    await page.locator('#nd-sidebar').getByRole('button', { name: 'Theme' }).click()
    await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true')
    await page.getByRole('menuitemradio', { name: 'Light' }).click()
    await expect(page.locator('html')).toHaveClass(/\blight\b/)
    await expect(group.getByRole('button', { name: 'Light' })).toHaveAttribute('aria-pressed', 'true')
  })

  test('choosing a language keeps the page', async ({ page }) => {
    await visit(page, '/en/docs/database')
    await page.locator('#nd-sidebar').getByRole('button', { name: 'Choose a language' }).click()
    await page.getByRole('menuitemradio', { name: '中文' }).click()
    await expect(page).toHaveURL(/\/zh\/docs\/database$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('数据库')
  })

  test('a tab follows the URL hash and writes its own anchor', async ({ page }) => {
    await visit(page, '/en/docs/database#engine-postgresql')
    const tabs = page.getByRole('tablist').first()
    await expect(tabs.getByRole('tab', { name: 'PostgreSQL' })).toHaveAttribute('aria-selected', 'true')
    await tabs.getByRole('tab', { name: 'PGlite' }).click()
    await expect(page).toHaveURL(/#engine-pglite$/)
  })

  test('a tab choice persists across pages and reloads', async ({ page }) => {
    await visit(page, '/en/docs/database')
    const tabs = page.getByRole('tablist').first()
    await tabs.getByRole('tab', { name: 'PostgreSQL' }).click()
    await expect(tabs.getByRole('tab', { name: 'PostgreSQL' })).toHaveAttribute('aria-selected', 'true')
    await visit(page, '/en/docs/development/testing')
    await expect(page.getByRole('tab', { name: 'PostgreSQL' }).first()).toHaveAttribute('aria-selected', 'true')
  })
})

test.describe('docs search', () => {
  /** Ctrl+K (Cmd+K on a Mac) opens the search dialog. */
  async function openSearchWithKeyboard(page: import('@playwright/test').Page) {
    const dialog = page.getByRole('dialog')
    // The dialog's code loads on the first press; pressing again while it loads would toggle it shut again, so a
    // retry waits long enough for a slow load first.
    await expect(async () => {
      await page.keyboard.press('Control+k')
      await expect(dialog).toBeVisible({ timeout: 5000 })
    }).toPass()
    return dialog
  }
  const results = (dialog: import('@playwright/test').Locator) => dialog.locator('button[aria-selected]')

  test('Ctrl+K finds an English term on /en, and a result links to its heading', async ({ page }) => {
    await visit(page, '/en/docs')
    const dialog = await openSearchWithKeyboard(page)
    await dialog.getByRole('textbox').fill('PGlite')
    // A match inside a section (not a page title) links to the heading above it.
    const match = results(dialog).filter({ hasText: 'Only one process can open a PGlite folder' }).first()
    await expect(match).toBeVisible()
    await match.click()
    await expect(page).toHaveURL(/\/en\/docs\/[a-z-/]+#[a-z-]+$/)
    await expect(dialog).toBeHidden()
  })

  test('a two-character Chinese word from a zh page is found on /zh, from the search button', async ({ page }) => {
    await visit(page, '/zh/docs')
    await page.locator('#nd-sidebar').getByRole('button', { name: '搜索' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('textbox').fill('迁移')
    await expect(results(dialog).filter({ hasText: '生成迁移' }).first()).toBeVisible()
    await expect(results(dialog).first()).toContainText('文档')
  })

  test('says No results found when nothing matches', async ({ page }) => {
    await visit(page, '/en/docs')
    const dialog = await openSearchWithKeyboard(page)
    await dialog.getByRole('textbox').fill('xyzzyplugh')
    await expect(dialog.getByText('No results found')).toBeVisible()
  })
})

test.describe('an unknown docs page', () => {
  test.use({ expectedConsoleErrors: documentStatusError(404) })

  test('answers 404 with the not-found screen inside the docs layout', async ({ page }) => {
    const response = await visit(page, '/en/docs/no/such/page')
    expect(response?.status()).toBe(404)
    await expect(page.getByTestId('docs-not-found')).toContainText('The page you are looking for does not exist.')
    await expect(page.locator('#nd-sidebar').getByRole('link', { name: 'Introduction' })).toBeVisible()
  })
})
