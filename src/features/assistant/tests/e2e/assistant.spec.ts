import type { Page } from '@playwright/test'
import { newAccount, signUpNewAccount, uniqueId } from '../../../../../tests/e2e/accounts'
import { fakeAiUrl } from '../../../../../tests/e2e/fake-ai-location'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

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

test.describe('the console assistant', () => {
  test('streams an answer token by token, renders its Markdown safely, and keeps it after a reload', async ({
    page,
  }) => {
    const id = uniqueId()
    const answer = `The reading room opens at **nine** on weekdays and closes at six. <script>alert(1)</script> Ref ${id}.`
    await script(`opening ${id}`, [{ text: answer, chunkDelayMs: 120 }])
    await signUpNewAccount(page, newAccount({ name: 'Ada Asker' }))
    await visit(page, '/en/console/assistant')
    await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
    await send(page, `When is the reading room opening ${id}?`)

    const reply = page.getByTestId('message-assistant').last()
    // Part of the answer shows before the rest has arrived.
    await expect
      .poll(async () => {
        const shown = (await reply.textContent()) ?? ''
        return shown.includes('reading room') && !shown.includes(`Ref ${id}`)
      })
      .toBe(true)
    await expect(reply).toContainText(`Ref ${id}.`)
    await expect(reply.locator('strong')).toHaveText('nine')
    await expect(reply.locator('script'), 'raw HTML is never rendered').toHaveCount(0)
    await expect(page, 'the new conversation has its own address').toHaveURL(/\/en\/console\/assistant\?c=/)
    await expect(page.getByTestId('conversation-list')).toContainText(`When is the reading room opening ${id}?`)

    await page.reload()
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(page.getByTestId('message-user')).toContainText(`When is the reading room opening ${id}?`)
    await expect(page.getByTestId('message-assistant')).toContainText(`closes at six.`)
  })

  test('stops an answer half way, and keeps what was written', async ({ page }) => {
    const id = uniqueId()
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ')
    await script(`long ${id}`, [{ text: words, chunkDelayMs: 150 }])
    await signUpNewAccount(page)
    await visit(page, '/en/console/assistant')
    await send(page, `Tell me something long ${id}`)
    const reply = page.getByTestId('message-assistant').last()
    await expect(reply).toContainText('word3')
    await page.getByRole('button', { name: 'Stop' }).click()
    await expect(page.getByText('Stopped before the answer was finished.')).toBeVisible()
    const kept = (await reply.textContent()) ?? ''
    expect(kept, 'the answer stopped before its end').not.toContain('word59')
    await page.reload()
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(page.getByTestId('message-assistant')).toContainText('word3')
  })

  // What an installed app's tools look like in the chat, confirmed or declined, is the app's own tests'
  // (src/features/<app>/tests/e2e).
  test('in Chinese: the page and the answer', async ({ page }) => {
    const id = uniqueId()
    await script(`开放${id}`, [{ text: '阅览室**九点**开放，六点关闭。' }])
    await signUpNewAccount(page)
    await visit(page, '/zh/console/assistant')
    await expect(page.getByRole('heading', { name: '助手', exact: true })).toBeVisible()
    await expect(page.getByRole('heading', { name: '有什么可以帮你？' })).toBeVisible()
    await send(page, `阅览室几点开放${id}？`, '发给助手的消息')
    const reply = page.getByTestId('message-assistant').last()
    await expect(reply).toContainText('阅览室九点开放，六点关闭。')
    await expect(reply.locator('strong')).toHaveText('九点')
  })

  test('renames and deletes a conversation', async ({ page }) => {
    const id = uniqueId()
    await script(`rename ${id}`, [{ text: 'Noted.' }])
    await signUpNewAccount(page)
    await visit(page, '/en/console/assistant')
    await send(page, `Something to rename ${id}`)
    await expect(page.getByTestId('message-assistant')).toContainText('Noted.')
    const list = page.getByTestId('conversation-list')
    await list.getByRole('button', { name: `Actions for “Something to rename ${id}”` }).click()
    await page.getByRole('menuitem', { name: 'Rename' }).click()
    await page.getByLabel('Title').fill(`Renamed ${id}`)
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(list).toContainText(`Renamed ${id}`)
    await list.getByRole('button', { name: `Actions for “Renamed ${id}”` }).click()
    await page.getByRole('menuitem', { name: 'Delete' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('Conversation deleted')).toBeVisible()
    await expect(page.getByText('No conversations yet.')).toBeVisible()
  })
})

test.describe('Ask the docs', () => {
  test('answers from the docs in the search dialog, cites a page, and the link opens it', async ({ page }) => {
    const id = uniqueId()
    await script(`mcp client ${id}`, [
      {
        text: 'Create an API key on the Account page and add /api/mcp to your client; see [Integrations](/en/docs/integrations).',
        chunkDelayMs: 40,
      },
    ])
    await visit(page, '/en/docs')
    const search = await openDialog(page, () => page.keyboard.press('Control+k'))
    await search.getByRole('textbox').fill(`How do I add the MCP server to an MCP client? mcp client ${id}`)
    await page.getByRole('button', { name: /^Ask AI: “How do I add the MCP server/ }).click()

    const ask = page.getByTestId('ask-docs')
    // The whole answer, before the link under it is clicked: while it streams the link moves down as lines arrive.
    await expect(ask.getByTestId('ask-docs-answer')).toContainText('add /api/mcp to your client; see Integrations.')
    const source = ask.getByTestId('ask-docs-sources').getByRole('link', { name: 'Integrations', exact: true })
    await expect(source).toBeVisible()
    await source.click()
    await expect(page).toHaveURL(/\/en\/docs\/integrations$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible()
  })

  test('in Chinese, from a docs page', async ({ page }) => {
    const id = uniqueId()
    await script(`成员${id}`, [{ text: '在**成员**页面邀请成员，参见[组织](/zh/docs/organizations)。' }])
    await visit(page, '/zh/docs/integrations')
    const ask = await openDialog(
      page,
      () => page.getByRole('button', { name: '问 AI', exact: true }).click(),
      page.getByTestId('ask-docs'),
    )
    await expect(ask.getByRole('heading', { name: '询问文档' })).toBeVisible()
    await ask.getByLabel('你的问题').fill(`如何邀请组织成员？成员${id}`)
    await ask.getByRole('button', { name: '提问' }).click()
    await expect(ask.getByTestId('ask-docs-answer')).toContainText('在成员页面邀请成员')
    const links = ask.getByTestId('ask-docs-sources').getByRole('link')
    await expect(links.first()).toHaveAttribute('href', /^\/zh\/docs\//)
    await ask.getByTestId('ask-docs-answer').getByRole('link', { name: '组织', exact: true }).click()
    await expect(page).toHaveURL(/\/zh\/docs\/organizations$/)
  })
})
