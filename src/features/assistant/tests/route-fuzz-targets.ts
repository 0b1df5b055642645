// The assistant's route for the fuzzer (tests/fuzz/api-routes.test.ts): hostile chat requests, as every kind of caller.
import fc from 'fast-check'
import { createAiProvider } from '#/server/ai/provider'
import { hostileText, hostileValue } from '../../../../tests/fuzz/arbitraries'
import type { RouteFuzzContext, RouteFuzzTarget } from '../../../../tests/fuzz/route-targets'
import { fakeModelId } from '../../../../tests/support/fake-openai'
import { installedAppTools } from '../server/app-tools'
import { answerAssistantRequest } from '../server/assistant-chat'

export function routeFuzzTargets({ db, nextIp, aiUrl, origin }: RouteFuzzContext): RouteFuzzTarget[] {
  return [
    {
      target: 'POST /api/assistant',
      path: () => '/api/assistant',
      methods: ['POST'],
      call: async (request) =>
        answerAssistantRequest(request, {
          db: db(),
          clientIp: nextIp(),
          provider: createAiProvider({ baseURL: aiUrl(), model: fakeModelId }),
          toolSets: (await installedAppTools()).toolSets,
          requestsPerMinute: 1_000_000,
          trustedOrigins: [origin],
        }),
      body: fc.record({
        id: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/), hostileText),
        locale: fc.constantFrom('en', 'zh', 'xx', hostileValue),
        message: fc.oneof(
          fc.record({
            id: hostileText,
            role: fc.constantFrom('user', 'assistant', 'system'),
            parts: fc.array(fc.oneof(fc.record({ type: fc.constant('text'), text: hostileText }), hostileValue), {
              maxLength: 3,
            }),
          }),
          hostileValue,
        ),
      }),
    },
  ]
}
