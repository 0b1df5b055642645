import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { EmbeddingModel, LanguageModel } from 'ai'
import { type Env, getEnv } from '../env'

/** The model provider the AI features talk to, when the operator configured one (AI_BASE_URL and AI_MODEL). */
export interface AiProvider {
  chatModel: LanguageModel
  chatModelId: string
  /** Only with AI_EMBEDDING_MODEL; without it, retrieval uses the docs' search index. */
  embeddingModel?: EmbeddingModel
  embeddingModelId?: string
}

let cached: { env: Env; provider: AiProvider | undefined } | undefined

/**
 * How long a provider may take to start its answer (the response's headers). A streamed answer may then run as long
 * as it keeps streaming; a provider that accepts the connection and says nothing is given up on, and the chat says
 * the provider failed, instead of spinning until the browser gives up.
 */
export const aiFirstAnswerTimeoutMs = 15_000

function fetchWithFirstAnswerTimeout(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const giveUp = new AbortController()
    const timer = setTimeout(
      () => giveUp.abort(new Error(`the AI provider did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    )
    const signal = init?.signal ? AbortSignal.any([init.signal, giveUp.signal]) : giveUp.signal
    try {
      return await fetch(input, { ...init, signal })
    } finally {
      clearTimeout(timer)
    }
  }
}

/** An OpenAI-compatible provider at `baseURL` (the tests point one at their scripted server). */
export function createAiProvider(settings: {
  baseURL: string
  apiKey?: string
  model: string
  embeddingModel?: string
  /** How long the provider may take to start answering; tests set a short one. */
  firstAnswerTimeoutMs?: number
}): AiProvider {
  const provider = createOpenAICompatible({
    name: 'ai',
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    // Token counts in streamed answers: metering needs them (OpenAI sends them only when asked).
    includeUsage: true,
    fetch: fetchWithFirstAnswerTimeout(settings.firstAnswerTimeoutMs ?? aiFirstAnswerTimeoutMs),
  })
  return {
    chatModel: provider.chatModel(settings.model),
    chatModelId: settings.model,
    embeddingModel: settings.embeddingModel ? provider.embeddingModel(settings.embeddingModel) : undefined,
    embeddingModelId: settings.embeddingModel,
  }
}

function providerFor(env: Env): AiProvider | undefined {
  if (!env.AI_BASE_URL || !env.AI_MODEL) return undefined
  return createAiProvider({
    baseURL: env.AI_BASE_URL,
    apiKey: env.AI_API_KEY,
    model: env.AI_MODEL,
    embeddingModel: env.AI_EMBEDDING_MODEL,
  })
}

/** The configured provider, or undefined: then every AI surface says "AI is not configured" and calls nothing. */
export function aiProvider(env: Env = getEnv()): AiProvider | undefined {
  if (cached?.env !== env) cached = { env, provider: providerFor(env) }
  return cached.provider
}

export function isAiConfigured(env: Env = getEnv()): boolean {
  return Boolean(env.AI_BASE_URL && env.AI_MODEL)
}
