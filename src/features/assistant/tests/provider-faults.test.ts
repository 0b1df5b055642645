// The assistant when its model provider accepts and never answers: the person is told in their language, nothing is
// stored and the month's request is given back. (A payment provider's faults: src/features/stripe/tests/faults-payments.test.ts.)
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { m } from '#/paraglide/messages'
import { createAiProvider } from '#/server/ai/provider'
import { aiConversations, aiUsage } from '#/server/db/schema'
import { usageMonth } from '#/server/plan-limits'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { testPorts } from '../../../../tests/support/ports'
import { startTcpProxy, type TcpProxy } from '../../../../tests/support/tcp-proxy'
import { withinBound } from '../../../../tests/support/within-bound'
import { installedAppTools } from '../server/app-tools'
import { answerAssistantRequest } from '../server/assistant-chat'

// The provider is this proxy, with nothing behind it: it accepts connections and never answers.
let silent: TcpProxy

beforeAll(async () => {
  silent = await startTcpProxy({ port: testPorts.assistantSilentProvider, target: { host: '127.0.0.1', port: 9 } })
})
afterAll(async () => {
  await silent?.close()
})

describe.each(engines)('the assistant when its model provider is silent, on %s', (engine) => {
  let database: FreshDatabase
  let owner: Person
  let organizationId: string
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    const h = organizationHarness(db())
    owner = await h.signUp('Fay Faults')
    organizationId = await h.createOrganization(owner, 'Fault Library', 'fault-library')
  })
  afterAll(() => database.dispose())

  it('tells the person the AI provider failed, in their language, when it accepts and never answers', async () => {
    silent.setMode('stall')
    // The production bound is 15 s (aiFirstAnswerTimeoutMs); the test sets a short one.
    const provider = createAiProvider({
      baseURL: `http://127.0.0.1:${testPorts.assistantSilentProvider}/v1`,
      model: 'fake-model',
      firstAnswerTimeoutMs: 300,
    })
    const id = `conv_fault_${Date.now()}`
    const response = await withinBound(
      answerAssistantRequest(
        new Request(`${testOrigin}/api/assistant`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: owner.cookie, origin: testOrigin },
          body: JSON.stringify({
            id,
            locale: 'zh',
            message: { id: `user_${id}`, role: 'user', parts: [{ type: 'text', text: '有人吗？' }] },
          }),
        }),
        {
          db: db(),
          clientIp: '127.0.0.1',
          provider,
          toolSets: (await installedAppTools()).toolSets,
          requestsPerMinute: 1000,
          trustedOrigins: [testOrigin],
        },
      ).then((answer) => answer.text()),
    )
    const errors = response
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string; errorText?: string })
      .filter((chunk) => chunk.type === 'error')
    expect(errors[0]?.errorText).toBe(m.ai_provider_failed({}, { locale: 'zh' }))
    expect(await db().select().from(aiConversations).where(eq(aiConversations.id, id)), 'nothing stored').toEqual([])
    const [usage] = await db()
      .select({ requests: aiUsage.requests })
      .from(aiUsage)
      .where(and(eq(aiUsage.organizationId, organizationId), eq(aiUsage.month, usageMonth())))
    expect(usage?.requests ?? 0, 'the request is given back').toBe(0)
  })
})
