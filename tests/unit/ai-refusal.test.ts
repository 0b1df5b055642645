import { describe, expect, it } from 'vitest'
import { aiRefusalOf } from '#/lib/ai-refusal'

describe('what the chats say when an answer failed', () => {
  it('shows the server’s own refusal, with its upgrade link', () => {
    const refusal = new Error(
      JSON.stringify({ code: 'PLAN_LIMIT_AI_REQUESTS', message: '本月的 AI 请求已用完', upgradeUrl: '/zh/my-orders' }),
    )
    expect(aiRefusalOf(refusal)).toEqual({ message: '本月的 AI 请求已用完', upgradeUrl: '/zh/my-orders' })
  })

  it('never shows a text from elsewhere: a lost connection, a proxy’s error page', () => {
    expect(aiRefusalOf(new TypeError('Failed to fetch')).message).toBe(
      'Could not reach the server. Check your connection and try again.',
    )
    expect(aiRefusalOf(new Error('<html><body>502 Bad Gateway</body></html>')).message).toBe(
      'The AI provider could not answer. Nothing was saved; try again in a moment.',
    )
  })
})
