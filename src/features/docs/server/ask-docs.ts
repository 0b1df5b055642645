import { createUIMessageStream, createUIMessageStreamResponse, generateId, streamText, toUIMessageStream } from 'ai'
import { type Locale, locales } from '#/lib/i18n'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import {
  jsonRefusal,
  promptLanguageNames,
  providerFailureText,
  readJsonBody,
  sameOriginRequest,
} from '#/server/ai/answers'
import { addUsage, noUsage, recordAiTokens } from '#/server/ai/metering'
import type { AiProvider } from '#/server/ai/provider'
import type { Database } from '#/server/db/client'
import { log } from '#/server/log'
import { consumeRateLimit } from '#/server/rate-limit'
import { inLocale, localeOfRequest } from '#/server/request-locale'
import { getSiteSettings } from '#/server/settings'
import { askDocsLimits } from '../schemas'
import type { retrieveDocs } from './docs-retrieval'
import type { DocsPassage } from './embedding-index'

/** A question of 500 characters fits many times over. */
const maxBodyBytes = 16 * 1024

const askRequest = z.object({
  question: z.string().trim().min(1).max(askDocsLimits.questionMax),
  locale: z.enum(locales),
})

export interface AskDocsOptions {
  db: Database
  clientIp: string
  provider: AiProvider | undefined
  /** Questions per address per minute (AI_DOCS_QUESTIONS_PER_MINUTE). */
  questionsPerMinute: number
  trustedOrigins: string[]
  /** Finds the docs to answer from: retrieveDocs (src/routes/api/ask-docs.ts); a test may give its own pages. */
  retrieve: typeof retrieveDocs
}

function instructions(productName: string, lang: Locale, passages: DocsPassage[]): string {
  const excerpts = passages.map((passage, index) => `[${index + 1}] ${passage.title} (${passage.url})\n${passage.text}`)
  return [
    `You answer questions about ${productName} using only the documentation excerpts below.`,
    `Answer in the language of the question; when it is unclear, in ${promptLanguageNames[lang]}.`,
    'Be brief and concrete. Use Markdown.',
    'Link every page you use with a Markdown link to its path exactly as given, e.g. [Integrations](/en/docs/integrations).',
    'If the excerpts do not answer the question, say so plainly and point to the closest pages. Never invent features.',
    '',
    'Documentation excerpts:',
    excerpts.length > 0 ? excerpts.join('\n\n---\n\n') : '(none matched the question)',
  ].join('\n')
}

/**
 * "Ask the docs" (`POST /api/ask-docs`): one question, answered from the docs in a streamed UI message whose source
 * parts are the pages it was given. Anyone may ask, from this site's pages, a few times a minute per address.
 */
export async function answerDocsQuestion(request: Request, options: AskDocsOptions): Promise<Response> {
  const origin = new URL(request.url).origin
  // Checked before the body is read: a page on another site gets nothing parsed.
  if (!sameOriginRequest(request, options.trustedOrigins)) {
    return inLocale(localeOfRequest(request), origin, async () => jsonRefusal(403, 'FORBIDDEN'))
  }
  const body = await readJsonBody(request, maxBodyBytes)
  const parsed = askRequest.safeParse(body === 'too-large' ? undefined : body.value)
  const lang = parsed.success ? parsed.data.locale : localeOfRequest(request)
  return inLocale(lang, origin, async () => {
    const provider = options.provider
    if (!provider) return jsonRefusal(503, 'AI_NOT_CONFIGURED', m.ai_not_configured_title())
    if (!parsed.success) {
      const tooLong = body === 'too-large' || parsed.error.issues.some((issue) => issue.code === 'too_big')
      return tooLong
        ? jsonRefusal(400, 'QUESTION_TOO_LONG', m.docs_ask_too_long({ max: String(askDocsLimits.questionMax) }))
        : jsonRefusal(400, 'QUESTION_EMPTY', m.docs_ask_empty())
    }
    const rate = await consumeRateLimit(options.db, `ask-docs:${options.clientIp}`, {
      limit: options.questionsPerMinute,
      windowMs: 60_000,
    })
    if (!rate.allowed) {
      return jsonRefusal(429, 'TOO_MANY_REQUESTS', undefined, {
        'Retry-After': String(rate.retryAfterSeconds),
      })
    }
    const { question } = parsed.data
    const embeddings = provider.embeddingModel
      ? { model: provider.embeddingModel, modelId: provider.embeddingModelId ?? '' }
      : undefined
    let passages: DocsPassage[]
    try {
      passages = await options.retrieve(question, lang, embeddings)
    } catch (error) {
      log().error({ err: error }, 'ask the docs: retrieval failed')
      return jsonRefusal(502, 'AI_PROVIDER_FAILED', providerFailureText(lang))
    }
    const { productName } = await getSiteSettings(options.db)
    let usage = noUsage
    let failed = false
    const stream = createUIMessageStream({
      generateId,
      execute: ({ writer }) => {
        writer.write({ type: 'start', messageId: generateId() })
        for (const [index, passage] of passages.entries()) {
          writer.write({ type: 'source-url', sourceId: `doc-${index + 1}`, url: passage.url, title: passage.title })
        }
        const result = streamText({
          model: provider.chatModel,
          system: instructions(productName, lang, passages),
          prompt: question,
          abortSignal: request.signal,
          maxRetries: 1,
          onStepEnd: (step) => {
            usage = addUsage(usage, step.usage)
          },
          onError: () => {
            failed = true
          },
        })
        writer.merge(
          toUIMessageStream({
            stream: result.stream,
            sendStart: false,
            onError: () => {
              failed = true
              return providerFailureText(lang)
            },
          }),
        )
      },
      onError: () => {
        failed = true
        return providerFailureText(lang)
      },
      onEnd: async ({ isAborted, isCancelled }) => {
        if (failed && !isAborted && !isCancelled) return
        try {
          await recordAiTokens(options.db, {
            organizationId: null,
            userId: null,
            surface: 'docs',
            model: provider.chatModelId,
            usage,
            outcome: isAborted || isCancelled ? 'stopped' : 'completed',
          })
        } catch (error) {
          log().error({ err: error }, 'ask the docs: the tokens could not be recorded')
        }
      },
    })
    return createUIMessageStreamResponse({ stream, headers: { 'Cache-Control': 'no-store' } })
  })
}
