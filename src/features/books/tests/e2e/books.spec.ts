import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { newAccount, signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { documentStatusError, expect, test, visit } from '../../../../../tests/e2e/fixtures'

const rows = (page: Page) => page.getByTestId('book-row')
const row = (page: Page, title: string) => rows(page).filter({ hasText: title })

async function openBooks(page: Page, lang: 'en' | 'zh' = 'en', query = '') {
  await visit(page, `/${lang}/console/books${query}`)
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}

/**
 * Toasts stack at the bottom right, over whatever is there, and stay while the pointer rests on them: a person moves
 * the pointer away and lets them go before reaching for what is under them (a row's menu low on the page).
 */
async function afterTheToasts(page: Page) {
  await page.mouse.move(0, 0)
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
}

const csvFile = (name: string, lines: string[]) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(lines.join('\n')),
})

test.describe('books', () => {
  // The server's refusal of a taken ISBN is a 400 the browser reports.
  test.describe('one book', () => {
    test.use({ expectedConsoleErrors: documentStatusError(400) })
    test('a book is added, refused until its ISBN is right, edited, tagged, deleted and brought back', async ({
      page,
    }) => {
      await signUpNewAccount(page)
      await openBooks(page)
      await expect(page.getByTestId('empty-state')).toContainText('No books yet')

      await page.getByRole('button', { name: 'New book' }).first().click()
      const form = page.getByRole('form', { name: 'New book' })
      await form.getByLabel('Title', { exact: true }).fill('Structure and Interpretation of Computer Programs')
      await form.getByLabel('Authors').fill('Harold Abelson, Gerald Jay Sussman')
      await form.getByLabel('ISBN').fill('978-0-262-51087-6')
      await form.getByLabel('Published year').fill('1996')
      await form.getByRole('button', { name: 'Save' }).click()
      await expect(page.getByTestId('error-isbn')).toHaveText('Not a valid ISBN-10 or ISBN-13: check the digits.')
      await expect(page.getByTestId('books-table')).toHaveCount(0)
      await form.getByLabel('ISBN').fill('978-0-262-51087-5')
      await form.getByRole('button', { name: 'Save' }).click()
      await expect(form).toHaveCount(0)
      await expect(row(page, 'Structure and Interpretation')).toContainText('Harold Abelson, Gerald Jay Sussman')
      // The number of books is said once, by the pager.
      await expect(page.getByTestId('list-range')).toHaveText('1–1 of 1')
      await expect(page.getByText(/^Total: /)).toHaveCount(0)
      await expect(page.getByTestId('list-total')).toHaveCount(0)

      // A second book with the same edition's ISBN-10 is refused beside the field.
      await page.getByRole('button', { name: 'New book' }).first().click()
      await form.getByLabel('Title', { exact: true }).fill('SICP again')
      await form.getByLabel('ISBN').fill('0-262-51087-1')
      await form.getByRole('button', { name: 'Save' }).click()
      await expect(page.getByTestId('error-isbn')).toHaveText('Another book in this organization has this ISBN.')
      await form.getByLabel('ISBN').fill('')
      await form.getByLabel('Tags').fill('lisp')
      await form.getByRole('button', { name: 'Save' }).click()
      await expect(row(page, 'SICP again')).toBeVisible()

      // Edit through the row's menu.
      await page.getByRole('button', { name: 'Actions for SICP again' }).click()
      await page.getByRole('menuitem', { name: 'Edit' }).click()
      const edit = page.getByRole('form', { name: 'Edit book' })
      await expect(edit.getByLabel('Tags')).toHaveValue('lisp')
      await edit.getByLabel('Title', { exact: true }).fill('The Little Schemer')
      await edit.getByRole('button', { name: 'Save' }).click()
      await expect(row(page, 'The Little Schemer')).toBeVisible()
      await expect(row(page, 'SICP again')).toHaveCount(0)

      // Both selected, one tag for both.
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check()
      await expect(page.getByTestId('list-selected')).toHaveText('2 selected')
      await page.getByRole('button', { name: 'Add tags' }).click()
      await page.getByRole('form', { name: 'Add tags to 2 books' }).getByLabel('Tags to add').fill('classic')
      await page.getByRole('form', { name: 'Add tags to 2 books' }).getByRole('button', { name: 'Add tags' }).click()
      await expect(row(page, 'The Little Schemer')).toContainText('classic')
      await expect(row(page, 'Structure and Interpretation')).toContainText('classic')

      // Deleted at once, and back with Undo.
      await afterTheToasts(page)
      await page.getByRole('button', { name: 'Actions for The Little Schemer' }).click()
      await page.getByRole('menuitem', { name: 'Delete' }).click()
      await expect(row(page, 'The Little Schemer')).toHaveCount(0)
      await page.getByRole('button', { name: 'Undo' }).click()
      await expect(row(page, 'The Little Schemer')).toBeVisible()
      await page.reload()
      await expect(row(page, 'The Little Schemer')).toBeVisible()
      await expect(page.getByTestId('list-range')).toHaveText('1–2 of 2')

      // From the book's own page too: back to the list with Undo, and nothing left asking for the deleted book (a
      // failed request would be a console error, which fails the test).
      await row(page, 'The Little Schemer').getByRole('link', { name: 'The Little Schemer' }).click()
      await expect(page).toHaveURL(/\/en\/console\/books\/[^/?]+$/)
      await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
      await page.getByRole('button', { name: 'Delete' }).click()
      await expect(page).toHaveURL(/\/en\/console\/books(\?.*)?$/)
      await expect(row(page, 'The Little Schemer')).toHaveCount(0)
      await page.getByRole('button', { name: 'Undo' }).click()
      await expect(row(page, 'The Little Schemer')).toBeVisible()

      // Sorting is part of the address, and the back button returns to the previous order.
      await page.getByRole('button', { name: 'Sort by Title' }).click()
      await expect(page).toHaveURL(/sort=title&direction=asc/)
      await expect(rows(page).first()).toContainText('Structure and Interpretation')
      await page.getByRole('button', { name: 'Sort by Title' }).click()
      await expect(rows(page).first()).toContainText('The Little Schemer')
      await page.goBack()
      await expect(rows(page).first()).toContainText('Structure and Interpretation')
    })
  })

  test('in Chinese: a CSV with a bad row imports nothing, a good one imports, search finds Chinese, export saves the list', async ({
    page,
  }) => {
    test.slow()
    const account = newAccount({ name: '沈括' })
    await visit(page, '/zh/sign-up')
    await page.getByLabel('姓名', { exact: true }).fill(account.name)
    await page.getByLabel('邮箱', { exact: true }).fill(account.email)
    await page.getByLabel('密码', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: '创建账号' }).click()
    await expect(page).toHaveURL(/\/zh\/console$/)
    await openBooks(page, 'zh')

    await page.getByRole('button', { name: '导入 CSV' }).first().click()
    const header = 'title,authors,isbn,published_year,language,tags'
    await page
      .getByLabel('CSV 文件')
      .setInputFiles(csvFile('bad.csv', [header, '梦溪笔谈,沈括,,1088,zh,', ',无名,,,,']))
    await expect(page.getByTestId('import-problems')).toContainText('第 3 行，title：必填')
    await expect(page.getByRole('button', { name: /导入 2 本图书/ })).toBeDisabled()
    await page.getByRole('button', { name: '取消' }).click()
    await expect(page.getByTestId('empty-state')).toContainText('还没有图书')

    await page.getByRole('button', { name: '导入 CSV' }).first().click()
    await page
      .getByLabel('CSV 文件')
      .setInputFiles(
        csvFile('good.csv', [
          header,
          '梦溪笔谈,沈括,,1088,zh,科学',
          '天工开物,宋应星,,1637,zh,科学',
          'The Art of Computer Programming,Donald Knuth,978-0-201-89683-1,1997,en,algorithms',
        ]),
      )
    await expect(page.getByTestId('import-ready')).toHaveText('全部 3 行都可以导入。')
    await page.getByRole('button', { name: '导入 3 本图书' }).click()
    await expect(page.getByText('已导入 3 本图书。')).toBeVisible()
    await expect(rows(page)).toHaveCount(3)

    // Filters by tag and by language, offered from what the organization's books hold.
    await page.getByLabel('标签', { exact: true }).selectOption('科学')
    await expect(rows(page)).toHaveCount(2)
    await page.getByLabel('标签', { exact: true }).selectOption('')
    await page.getByLabel('语言', { exact: true }).selectOption('en')
    await expect(rows(page)).toHaveCount(1)
    await expect(rows(page)).toContainText('Donald Knuth')
    await page.getByLabel('语言', { exact: true }).selectOption('')
    await expect(rows(page)).toHaveCount(3)

    await page.getByRole('searchbox').fill('笔谈')
    await expect(page).toHaveURL(/q=%E7%AC%94%E8%B0%88/)
    await expect(rows(page)).toHaveCount(1)
    await expect(rows(page)).toContainText('沈括')

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: '导出 CSV' }).click(),
    ])
    const exported = readFileSync((await download.path()) ?? '', 'utf8')
    expect(exported).toContain('梦溪笔谈,沈括,,1088,zh,科学')
    expect(exported, 'only the filtered list').not.toContain('天工开物')

    // A shared link opens the same filtered list.
    await openBooks(page, 'zh', '?q=%E5%A4%A9%E5%B7%A5')
    await expect(rows(page)).toHaveCount(1)
    await expect(rows(page)).toContainText('天工开物')
  })

  test('a long list pages by number and by a chosen page size, fits a laptop, and shows cards on a phone', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await signUpNewAccount(page)
    const csv = ['title,authors,isbn,published_year,language,tags']
    for (let index = 1; index <= 48; index++) {
      csv.push(`Volume ${index},Donald E. Knuth,,${1960 + index},en,"classic, algorithms"`)
    }
    const status = await page.evaluate(
      (text) =>
        fetch('/api/trpc/books.import', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ json: { csv: text, dryRun: false } }),
        }).then((response) => response.status),
      csv.join('\n'),
    )
    expect(status).toBe(200)

    await openBooks(page)
    const pager = page.getByTestId('list-pager')
    await expect(pager.getByTestId('list-range')).toHaveText('1–25 of 48')
    await pager.getByRole('button', { name: 'Page 2' }).click()
    await expect(page).toHaveURL(/[?&]page=2/)
    await expect(pager.getByTestId('list-range')).toHaveText('26–48 of 48')
    await expect(rows(page)).toHaveCount(23)
    await expect(pager.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page')
    await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled()
    // A new page size starts again from the first page.
    await pager.getByLabel('Rows per page').selectOption('10')
    await expect(pager.getByTestId('list-range')).toHaveText('1–10 of 48')
    await expect(rows(page)).toHaveCount(10)
    await pager.getByRole('button', { name: 'Page 5' }).click()
    await expect(rows(page)).toHaveCount(8)
    await expect(rows(page).first()).toContainText('Volume 8')

    // Every column of the list shows at 1280 px: the table does not scroll sideways, and the last column is in view.
    const sideways = await page
      .getByTestId('books-table')
      .evaluate((table) =>
        table.parentElement ? table.parentElement.scrollWidth - table.parentElement.clientWidth : 1,
      )
    expect(sideways).toBeLessThanOrEqual(0)
    await expect(page.getByRole('button', { name: 'Sort by Added' })).toBeInViewport()
    await expect(page.getByRole('button', { name: 'Actions for Volume 8' })).toBeInViewport()

    // An address past the last page (an old link, or the last books deleted) opens the last page instead.
    await openBooks(page, 'en', '?page=9&size=10')
    await expect(pager.getByTestId('list-range')).toHaveText('41–48 of 48')
    await expect(page).toHaveURL(/[?&]page=5/)

    // A year filter applies on Enter (not per keystroke), starts from the first page, and puts back text that is no year.
    const fromYear = page.getByLabel('From year')
    await fromYear.fill('2000')
    await fromYear.press('Enter')
    await expect(page).toHaveURL(/[?&]yearFrom=2000/)
    await expect(pager.getByTestId('list-range')).toHaveText('1–9 of 9')
    await expect(rows(page).first()).toContainText('Volume 4')
    await fromYear.fill('20x')
    await fromYear.blur()
    await expect(fromYear).toHaveValue('2000')
    await expect(pager.getByTestId('list-range')).toHaveText('1–9 of 9')
    await fromYear.fill('')
    await fromYear.press('Enter')
    await expect(pager.getByTestId('list-range')).toHaveText('1–10 of 48')
    await expect(page).not.toHaveURL(/yearFrom/)

    // On a phone, in Chinese: cards naming each field, "page 2 of 5", and nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 740 })
    await openBooks(page, 'zh', '?page=2&size=10')
    await expect(pager.getByTestId('list-range')).toHaveText('第 11–20 条，共 48 条')
    await expect(page.getByText(/^共 \d+ 本$/), 'the total is said once, by the pager').toHaveCount(0)
    await expect(pager.getByTestId('list-page-of')).toHaveText('第 2 页，共 5 页')
    await expect(page.getByRole('columnheader')).toHaveCount(0)
    const year = row(page, 'Volume 38').locator('td[data-label="出版年份"]')
    await expect(year).toHaveText('1998')
    expect(await year.evaluate((cell) => getComputedStyle(cell, '::before').content), 'the card names it').toBe(
      '"出版年份"',
    )
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(360)
    await pager.getByRole('button', { name: '下一页' }).click()
    await expect(pager.getByTestId('list-page-of')).toHaveText('第 3 页，共 5 页')
  })

  test('a file of more than 1,000 rows imports in the background, and the list shows all of it when it ends', async ({
    page,
  }) => {
    test.slow()
    await signUpNewAccount(page)
    // Pro lifts the 50-book limit.
    await visit(page, '/en/checkout?plan=pro&interval=monthly')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await page.getByRole('button', { name: 'Continue to payment' }).click()
    await expect(page).toHaveURL(/\/pay\/lcs_/)
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await page.getByRole('button', { name: 'Pay $19' }).click()
    await expect(page).toHaveURL(/\/en\/my-orders\?order=/)

    await openBooks(page)
    const lines = ['title,authors,published_year']
    for (let index = 1; index <= 1_200; index++) lines.push(`Almanac ${index},Almanac Society,${1800 + (index % 200)}`)
    await page.getByRole('button', { name: 'Import CSV' }).first().click()
    await page.getByLabel('CSV file').setInputFiles(csvFile('almanacs.csv', lines))
    await page.getByRole('button', { name: 'Import 1,200 books' }).click()
    await expect(page.getByText('Importing 1,200 books in the background')).toBeVisible()
    // The job writes it in chunks; the page follows until it is done, then shows every book.
    await expect(page.getByText('Imported 1,200 books.')).toBeVisible({ timeout: 30_000 })
    await expect(page.getByTestId('list-range')).toHaveText('1–25 of 1,200')
    await expect(page.getByTestId('book-import-progress')).toHaveCount(0)
  })
})
