import type { Page } from '@playwright/test'
import { signUpNewAccount, uniqueId } from '../../../../../tests/e2e/accounts'
import { fakeAiUrl } from '../../../../../tests/e2e/fake-ai-location'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'
import { installedApps } from '../../../../apps'

// Books' tools in the console assistant (its server manifest's `assistantTools`, their views in its console.ts), and
// its docs page as "Ask the docs" finds it. The chat itself is the assistant's (src/features/assistant/tests/e2e).

interface ScriptedTurn {
  text?: string
  toolCalls?: { name: string; arguments: Record<string, unknown> }[]
  chunkDelayMs?: number
}

/** Tells the scripted provider how to answer a message containing `match` (unique per test: tests run in parallel). */
async function script(match: string, turns: ScriptedTurn[]) {
  const answer = await fetch(`${fakeAiUrl}/__script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: [{ match, turns }] }),
  })
  expect(answer.status, 'the scripted provider took the script').toBe(200)
}

/** Opens a dialog with `open` (a click or a key), retrying while its code still loads: a press too early is lost. */
async function openDialog(page: Page, open: () => Promise<void>, dialog = page.getByRole('dialog')) {
  await expect(async () => {
    await open()
    await expect(dialog).toBeVisible({ timeout: 5000 })
  }).toPass()
  return dialog
}

async function send(page: Page, text: string, label = 'Message to the assistant') {
  await page.getByLabel(label, { exact: true }).fill(text)
  await page.getByLabel(label, { exact: true }).press('Enter')
}

test.describe('books in the console assistant', () => {
  // Books does not need the assistant: without it, there is no chat to add a book from.
  test.skip(!(installedApps as readonly string[]).includes('assistant'), 'the assistant app is not installed')

  test('asks before creating a book; once confirmed the book is in Books', async ({ page }) => {
    const id = uniqueId()
    const title = `The Dispossessed ${id}`
    await script(`add ${id}`, [
      {
        toolCalls: [{ name: 'create_book', arguments: { title, authors: ['Ursula K. Le Guin'], publishedYear: 1974 } }],
      },
      { text: `Added *${title}* to your books.` },
    ])
    await signUpNewAccount(page)
    await visit(page, '/en/console/assistant')
    await send(page, `Please add ${id} The Dispossessed`)

    const confirmation = page.getByTestId('tool-confirm')
    await expect(confirmation).toContainText('Add this book to the organization?')
    await expect(confirmation).toContainText(title)
    await expect(confirmation).toContainText('Ursula K. Le Guin')
    await confirmation.getByRole('button', { name: 'Add book' }).click()
    await expect(page.getByTestId('tool-call')).toContainText(`Added “${title}”`)
    await expect(page.getByTestId('message-assistant').last()).toContainText('to your books.')

    await visit(page, '/en/console/books')
    await expect(page.getByRole('link', { name: title })).toBeVisible()
  })

  test('in Chinese: a declined book is not added', async ({ page }) => {
    const id = uniqueId()
    await script(`添加${id}`, [
      { toolCalls: [{ name: 'create_book', arguments: { title: `三体 ${id}` } }] },
      { text: '好的，没有添加。' },
    ])
    await signUpNewAccount(page)
    await visit(page, '/zh/console/assistant')
    await send(page, `请添加${id}《三体》`, '发给助手的消息')
    const confirmation = page.getByTestId('tool-confirm')
    await expect(confirmation).toContainText('将这本书添加到组织？')
    await confirmation.getByRole('button', { name: '不添加' }).click()
    await expect(page.getByTestId('tool-call')).toContainText('未添加：你已拒绝。')
    await expect(page.getByTestId('message-assistant').last()).toContainText('好的，没有添加。')
    await visit(page, '/zh/console/books')
    await expect(page.getByText(`三体 ${id}`)).toHaveCount(0)
  })
})

test.describe('Ask the docs, about books', () => {
  test('cites the books page, which books brings to the docs, and the link opens it', async ({ page }) => {
    const id = uniqueId()
    await script(`import books ${id}`, [
      { text: 'Upload a CSV file on the Books page; see [Books](/en/docs/books).', chunkDelayMs: 40 },
    ])
    await visit(page, '/en/docs')
    const search = await openDialog(page, () => page.keyboard.press('Control+k'))
    await search.getByRole('textbox').fill(`How do I import books from a CSV file? import books ${id}`)
    await page.getByRole('button', { name: /^Ask AI: “How do I import books/ }).click()

    const ask = page.getByTestId('ask-docs')
    // The whole answer, before the link under it is clicked: while it streams the link moves down as lines arrive.
    await expect(ask.getByTestId('ask-docs-answer')).toContainText('Upload a CSV file on the Books page; see Books.')
    const source = ask.getByTestId('ask-docs-sources').getByRole('link', { name: 'Books', exact: true })
    await expect(source).toBeVisible()
    await source.click()
    await expect(page).toHaveURL(/\/en\/docs\/books$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Books' })).toBeVisible()
  })
})
