// The notifications' route for the fuzzer (tests/fuzz/api-routes.test.ts): hostile stream requests, as every caller.
import fc from 'fast-check'
import { expect } from 'vitest'
import { encoded } from '../../../../tests/fuzz/arbitraries'
import type { RouteFuzzContext, RouteFuzzTarget } from '../../../../tests/fuzz/route-targets'
import { answerNotificationStream } from '../server/notification-stream'

export function routeFuzzTargets({ db }: RouteFuzzContext): RouteFuzzTarget[] {
  return [
    {
      target: 'GET /api/notifications?lang={text}',
      path: (lang) => `/api/notifications?lang=${encoded(lang)}`,
      methods: ['GET'],
      call: async (request) => {
        // A stream that is open stays open: its first event is the answer, then the page "goes away".
        const leaving = new AbortController()
        const answer = await answerNotificationStream(new Request(request, { signal: leaving.signal }), db())
        if (!answer.headers.get('content-type')?.startsWith('text/event-stream') || !answer.body) return answer
        const hadCookie = (request.headers.get('cookie') ?? '').length > 0
        expect(hadCookie, 'only a session cookie opens the stream').toBe(true)
        const reader = answer.body.getReader()
        const first = await reader.read()
        leaving.abort()
        await reader.cancel()
        return new Response(first.value, { status: answer.status, headers: answer.headers })
      },
      body: fc.constant(undefined),
    },
  ]
}
