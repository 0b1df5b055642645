import { tool } from 'ai'
import { locales } from '#/lib/i18n'
import { z } from '#/lib/zod'
import type { AssistantTools } from '#/server/ai/assistant-tools'
import { docsSearch } from './search'

/** The documentation for the console assistant: the search the docs' dialog uses, in the person's language. */
export const docsAssistantTools: AssistantTools = ({ locale }) => ({
  tools: {
    search_docs: tool({
      description:
        "Searches this product's documentation (how to use and run it). Returns matching pages and passages with " +
        'their links; cite the links you use.',
      inputSchema: z.object({
        query: z.string().trim().min(1).max(200).describe('Words to look for'),
        language: z
          .enum(locales)
          .optional()
          .describe("The docs' language: en or zh; the language of the person's question (default: the console's)"),
      }),
      execute: async ({ query, language }) => {
        const lang = language ?? locale
        const found = await docsSearch.search(query, { locale: lang })
        return {
          results: found.slice(0, 8).map((result) => ({
            text: String(result.content).replaceAll(/<\/?mark>/g, ''),
            url: `/${lang}${result.url}`,
          })),
        }
      },
    }),
  },
})
