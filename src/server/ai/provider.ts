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

/** An OpenAI-compatible provider at `baseURL` (the tests point one at their scripted server). */
export function createAiProvider(settings: {
  baseURL: string
  apiKey?: string
  model: string
  embeddingModel?: string
}): AiProvider {
  const provider = createOpenAICompatible({
    name: 'ai',
    baseURL: settings.baseURL,
    apiKey: settings.apiKey,
    // Token counts in streamed answers: metering needs them (OpenAI sends them only when asked).
    includeUsage: true,
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
