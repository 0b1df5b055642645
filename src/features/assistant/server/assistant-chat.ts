import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  generateId,
  stepCountIs,
  streamText,
  type ToolSet,
  toUIMessageStream,
  type UIMessage,
} from 'ai'
import { APIError } from 'better-auth/api'
import { apps } from '#/apps.gen'
import { translateAppError } from '#/lib/errors'
import { type Locale, locales } from '#/lib/i18n'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import { jsonRefusal, providerFailureText, readJsonBody, sameOriginRequest } from '#/server/ai/answers'
import { type AssistantTools, ToolRefusal } from '#/server/ai/assistant-tools'
import { addUsage, noUsage, recordAiTokens, takeAiRequest } from '#/server/ai/metering'
import type { AiProvider } from '#/server/ai/provider'
import { authForDatabase } from '#/server/auth/auth'
import { loadOrganizationAccess } from '#/server/auth/organization-access'
import { isBanActive } from '#/server/auth/user-administration'
import type { Database } from '#/server/db/client'
import { log } from '#/server/log'
import { PlanLimitError } from '#/server/plan-limits'
import { consumeRateLimit } from '#/server/rate-limit'
import { inLocale, localeOfRequest } from '#/server/request-locale'
import { createAppCaller } from '#/server/trpc/root'
import { assistantLimits, conversationId } from '../schemas'
import { conversationMessages, findConversation, saveConversation, titleFrom } from './conversation-store'
import { declinePendingApprovals, userText, withApprovalAnswers } from './incoming-message'
import { assistantInstructions } from './instructions'

/** Where the plan is changed, when an installed app sells plans (billing). */
const upgradePage = apps.find((app) => app.planPages)?.planPages?.manage

export interface AssistantChatOptions {
  db: Database
  clientIp: string
  /** Undefined when AI_BASE_URL and AI_MODEL are not set: every request is refused, none reaches a provider. */
  provider: AiProvider | undefined
  /** The installed apps' tools, then the docs'. */
  toolSets: AssistantTools[]
  /** What the standing instructions say of the apps' tools (their server manifests' `assistantInstructions`). */
  toolInstructions?: readonly string[]
  /** Messages a person may send per minute (AI_REQUESTS_PER_MINUTE). */
  requestsPerMinute: number
  trustedOrigins: string[]
}

/**
 * What the chat sends: the conversation's id and only its newest message (the server holds the rest). A person's
 * words are taken from a user message; from an assistant message, only their answers to the confirmations the
 * server asked for.
 */
const chatRequest = z.object({
  id: conversationId,
  locale: z.enum(locales),
  message: z.object({
    id: z.string().min(1).max(100),
    role: z.enum(['user', 'assistant']),
    parts: z.array(z.looseObject({ type: z.string() })).max(500),
  }),
})

/** The console assistant's endpoint (`POST /api/assistant`): one streamed answer in the AI SDK's UI message stream. */
/** Enough for a message of 8,000 characters, or an answered confirmation with its tool calls and results. */
const maxBodyBytes = 256 * 1024

/** The console assistant's endpoint (`POST /api/assistant`): one streamed answer in the AI SDK's UI message stream. */
export async function answerAssistantRequest(request: Request, options: AssistantChatOptions): Promise<Response> {
  const origin = new URL(request.url).origin
  // Checked before the body is read: a page on another site gets nothing parsed.
  if (!sameOriginRequest(request, options.trustedOrigins)) {
    return inLocale(localeOfRequest(request), origin, async () => jsonRefusal(403, 'FORBIDDEN'))
  }
  const body = await readJsonBody(request, maxBodyBytes)
  const parsed = chatRequest.safeParse(body === 'too-large' ? undefined : body.value)
  const locale = parsed.success ? parsed.data.locale : localeOfRequest(request)
  return inLocale(locale, origin, async () => {
    if (!options.provider) return jsonRefusal(503, 'AI_NOT_CONFIGURED', m.ai_not_configured_title())
    if (body === 'too-large') {
      return jsonRefusal(
        413,
        'MESSAGE_TOO_LONG',
        m.assistant_message_too_long({ max: String(assistantLimits.messageMax) }),
      )
    }
    if (!parsed.success) return jsonRefusal(400, 'BAD_REQUEST')
    return answerInLocale(request, parsed.data, options.provider, { ...options, locale, origin })
  })
}

async function signedInPerson(request: Request, db: Database) {
  try {
    // The database's session, never the cookie's signed copy: this request spends the organization's allowance.
    const session = await authForDatabase(db).api.getSession({
      headers: request.headers,
      query: { disableCookieCache: true },
    })
    if (!session || isBanActive(session.user as { banned?: boolean | null; banExpires?: Date | null })) return null
    return session
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return null
    throw error
  }
}

/**
 * Each tool's work runs in the person's language (its refusals are read by the model and shown in the chat). A tool
 * that breaks says only that it broke; the cause goes to the server's log.
 */
function toolsInLocale(tools: ToolSet, locale: Locale, origin: string): ToolSet {
  return Object.fromEntries(
    Object.entries(tools).map(([name, definition]) => {
      const execute = definition.execute
      if (!execute) return [name, definition]
      const run = (input: unknown, context: unknown) =>
        inLocale(locale, origin, async () => {
          try {
            return await execute(input, context as never)
          } catch (error) {
            if (error instanceof ToolRefusal) throw error
            log().error({ err: error, tool: name }, 'an assistant tool failed')
            throw new ToolRefusal(m.assistant_tool_crashed())
          }
        })
      return [name, { ...definition, execute: run }]
    }),
  ) as ToolSet
}

async function answerInLocale(
  request: Request,
  chat: z.infer<typeof chatRequest>,
  provider: AiProvider,
  options: AssistantChatOptions & { locale: Locale; origin: string },
): Promise<Response> {
  const { db, locale, origin } = options
  const person = await signedInPerson(request, db)
  if (!person) return jsonRefusal(401, 'UNAUTHORIZED')
  const organizationId = (person.session as { activeOrganizationId?: string | null }).activeOrganizationId
  if (!organizationId) return jsonRefusal(400, 'NO_ACTIVE_ORGANIZATION')
  const access = await loadOrganizationAccess(db, person.user.id, organizationId)
  if (!access) {
    return jsonRefusal(403, 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
  }
  const owner = { userId: person.user.id, organizationId }

  const rate = await consumeRateLimit(db, `assistant:${person.user.id}`, {
    limit: options.requestsPerMinute,
    windowMs: 60_000,
  })
  if (!rate.allowed) {
    return jsonRefusal(429, 'TOO_MANY_REQUESTS', undefined, {
      'Retry-After': String(rate.retryAfterSeconds),
    })
  }

  const found = await findConversation(db, chat.id, owner)
  if (found.exists && !found.owned) {
    return jsonRefusal(404, 'CONVERSATION_NOT_FOUND', m.assistant_conversation_not_found())
  }
  const stored = found.exists ? await conversationMessages(db, chat.id) : []
  const at = stored.findIndex((message) => message.id === chat.message.id)
  let messages: UIMessage[]
  if (chat.message.role === 'user') {
    const text = userText(chat.message)
    if (!text) return jsonRefusal(400, 'MESSAGE_EMPTY', m.assistant_message_empty())
    if (text.length > assistantLimits.messageMax) {
      return jsonRefusal(
        400,
        'MESSAGE_TOO_LONG',
        m.assistant_message_too_long({ max: String(assistantLimits.messageMax) }),
      )
    }
    if (at >= 0 && stored[at]?.role !== 'user') return jsonRefusal(400, 'BAD_REQUEST')
    // A message already stored is asked again (retry): what came after it goes.
    const before = declinePendingApprovals(at >= 0 ? stored.slice(0, at) : stored)
    messages = [...before, { id: chat.message.id, role: 'user', parts: [{ type: 'text', text }] }]
  } else {
    const asked = stored[at]
    if (asked?.role !== 'assistant') return jsonRefusal(400, 'BAD_REQUEST')
    const { message, answered } = withApprovalAnswers(asked, chat.message)
    if (answered === 0) return jsonRefusal(400, 'BAD_REQUEST')
    messages = [...stored.slice(0, at), message]
  }
  const firstQuestion = messages.find((message) => message.role === 'user')
  const title = found.exists
    ? found.conversation.title
    : titleFrom(
        firstQuestion?.parts.map((part) => (part.type === 'text' ? part.text : '')).join(' ') ?? chat.message.id,
      )

  const asUser = createAppCaller({
    db,
    headers: request.headers,
    clientIp: options.clientIp,
    method: 'POST',
    // Checked above against the database: each tool's procedure need not check it again.
    verifiedSession: person,
  })
  const toolSets = options.toolSets.map((toolsOf) => toolsOf({ asUser, locale, db, userId: person.user.id }))
  const tools = toolsInLocale(Object.assign({}, ...toolSets.map((set) => set.tools)) as ToolSet, locale, origin)
  const confirmFirst = toolSets.flatMap((set) => set.confirmFirst ?? [])

  let usage = noUsage
  let failure: unknown
  const modelMessages = await convertToModelMessages(messages, { tools, ignoreIncompleteToolCalls: true })
  const system = await assistantInstructions(db, {
    locale,
    person: person.user,
    organization: access.organization,
    toolInstructions: options.toolInstructions ?? [],
  })
  // Taken last, once nothing but the provider can fail: a refusal or an error before here costs nothing.
  let allowance: Awaited<ReturnType<typeof takeAiRequest>>
  try {
    allowance = await takeAiRequest(db, organizationId)
  } catch (error) {
    if (!(error instanceof PlanLimitError)) throw error
    return jsonRefusal(
      403,
      error.code,
      translateAppError(error.code, { limit: String(error.limit) }),
      {},
      upgradePage ? { upgradeUrl: `/${locale}${upgradePage}` } : {},
    )
  }

  const stream = createUIMessageStream({
    originalMessages: messages,
    generateId,
    execute: ({ writer }) => {
      const result = streamText({
        model: provider.chatModel,
        system,
        messages: modelMessages,
        tools,
        toolApproval: Object.fromEntries(confirmFirst.map((name) => [name, 'user-approval' as const])),
        stopWhen: stepCountIs(6),
        // Stop in the browser ends the request: the provider is told to stop too, and no more tokens are spent.
        abortSignal: request.signal,
        maxRetries: 1,
        onStepEnd: (step) => {
          usage = addUsage(usage, step.usage)
        },
        onError: ({ error }) => {
          failure = error
        },
      })
      writer.merge(
        toUIMessageStream({
          stream: result.stream,
          tools,
          sendReasoning: false,
          // A tool's refusal is already in the person's words (ToolRefusal); onError is for the provider failing.
          redactToolErrors: false,
          onError: (error) => {
            failure ??= error
            return providerFailureText(locale)
          },
        }),
      )
    },
    // A provider that breaks off mid-answer errors the merged stream itself: said in the same words.
    onError: (error) => {
      failure ??= error
      return providerFailureText(locale)
    },
    onEnd: async ({ messages: conversation, responseMessage, isAborted, isCancelled, isContinuation, outcome }) => {
      try {
        const failed = outcome.status === 'failed' || failure !== undefined
        const stopped = isAborted || isCancelled === true
        const answered = responseMessage.parts.some(
          (part) => (part.type === 'text' && part.text.length > 0) || part.type.startsWith('tool-'),
        )
        if (failed && !stopped) {
          log().error({ err: failure }, 'the assistant model provider failed')
        }
        if ((failed && !stopped) || !answered) await allowance.refund()
        // A provider that failed leaves nothing half-stored. Except after a confirmation: the approved tool has run
        // before the model was asked again, so what it did is kept (else the Confirm button would come back).
        if (((failed && !stopped) || !answered) && !isContinuation) return
        const saved = await saveConversation(db, {
          ...owner,
          id: chat.id,
          title,
          messages: conversation,
          // Written only over the conversation as this request found it: not over a deletion, nor another tab's turn.
          expectedUpdatedAt: found.exists ? found.conversation.updatedAt : null,
        })
        if (!saved)
          log().warn(
            { conversationId: chat.id },
            'an assistant conversation changed or was deleted meanwhile; not stored',
          )
        if ((failed && !stopped) || !answered) return
        await recordAiTokens(db, {
          ...owner,
          surface: 'assistant',
          model: provider.chatModelId,
          usage,
          outcome: stopped ? 'stopped' : 'completed',
        })
      } catch (error) {
        log().error({ err: error }, 'an assistant conversation could not be stored')
      }
    },
  })
  return createUIMessageStreamResponse({ stream, headers: { 'Cache-Control': 'no-store' } })
}
