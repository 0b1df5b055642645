// A page's notification stream as a test opens it (GET /api/notifications), for the notification tests.
import { expect } from 'vitest'
import { answerNotificationStream } from '#/features/notifications/server/notification-stream'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import type { Person } from '../../../../tests/integration/organization-fixtures'
import type { FreshDatabase } from '../../../../tests/integration/test-databases'

/** A page's open stream: the events it has heard, by name, until closed. */
export async function openStream(db: FreshDatabase, who: Person, lang = 'en') {
  const leaving = new AbortController()
  const answer = await answerNotificationStream(
    new Request(`${testOrigin}/api/notifications?lang=${lang}`, {
      headers: { cookie: who.cookie },
      signal: leaving.signal,
    }),
    db.connection.db,
  )
  expect(answer.status).toBe(200)
  expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/)
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader()
  const heard: string[] = []
  const decoder = new TextDecoder()
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      for (const match of decoder.decode(value).matchAll(/^event: (\w+)$/gm)) heard.push(match[1] ?? '')
    }
  })()
  return {
    heard,
    close: async () => {
      leaving.abort()
      await reading
    },
  }
}

/** The stream's answer alone, for a refusal (`lang` as the page sends it). */
export const streamAnswerOf = (db: FreshDatabase, who: Person | undefined, lang?: string) =>
  answerNotificationStream(
    new Request(`${testOrigin}/api/notifications${lang ? `?lang=${lang}` : ''}`, {
      headers: who ? { cookie: who.cookie } : {},
    }),
    db.connection.db,
  )
