import type { Locale } from '#/lib/i18n'
import { promptLanguageNames } from '#/server/ai/answers'
import type { Database } from '#/server/db/client'
import { getSiteSettings } from '#/server/settings'

/** The assistant's standing instructions: who it works for, where, and how to use its tools. */
export async function assistantInstructions(
  db: Database,
  context: {
    locale: Locale
    person: { name: string }
    organization: { name: string }
    /** The installed apps' sentences about their tools, before the docs' (the core's). */
    toolInstructions: readonly string[]
  },
): Promise<string> {
  const { productName } = await getSiteSettings(db)
  return [
    `You are the assistant in the console of ${productName}. You help ${context.person.name}, who is working in the organization "${context.organization.name}".`,
    `Answer in the language of the person's latest message; when it is unclear, answer in ${promptLanguageNames[context.locale]}.`,
    'Use Markdown. Be brief and concrete.',
    ...context.toolInstructions,
    `Use search_docs for questions about how ${productName} works, and link the pages you used.`,
    'Never invent records, links or facts the tools did not return.',
    `Today is ${new Date().toISOString().slice(0, 10)}.`,
  ].join('\n')
}
