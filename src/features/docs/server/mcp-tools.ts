import { type Locale, locales } from '#/lib/i18n'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import { getEnv } from '#/server/env'
import { type McpToolSet, toolResult } from '#/server/mcp'
import { findDocsPage, pageMarkdown } from './llms'
import { markdownUrlFor } from './page-info'
import { docsSearch } from './search'

const language = z.enum(locales).default('en').describe('The documentation language: en (English) or zh (Chinese)')

/** "development/testing", "/docs/development/testing", "/zh/docs/development/testing.md" or its full URL: the slugs. */
export function docsSlugsOf(path: string): string[] {
  let pathname = path.trim()
  try {
    pathname = new URL(pathname).pathname
  } catch {
    // Not a URL: a path as it is.
  }
  const parts = pathname.replace(/\.md$/, '').split('/').filter(Boolean)
  if (locales.includes(parts[0] as Locale)) parts.shift()
  if (parts[0] === 'docs') parts.shift()
  return parts
}

/** The public documentation tools: search, and one page as Markdown. */
export const docsMcpTools: McpToolSet = ({ server }) => {
  server.registerTool(
    'search_docs',
    {
      title: 'Search the documentation',
      description:
        'Full-text search over the documentation in one language. Returns matching pages, headings and passages with ' +
        'their URLs; read a whole page with get_doc_page.',
      inputSchema: {
        query: z.string().trim().min(1).max(200).describe('Words to look for'),
        language,
        limit: z.number().int().min(1).max(50).default(10).describe('At most this many results'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, language: lang, limit }) => {
      const origin = getEnv().APP_URL
      const found = await docsSearch.search(query, { locale: lang })
      const results = found.slice(0, limit).map((result) => ({
        kind: result.type,
        text: String(result.content).replaceAll(/<\/?mark>/g, ''),
        url: `${origin}/${lang}${result.url}`,
      }))
      return toolResult({ query, language: lang, results })
    },
  )

  server.registerTool(
    'get_doc_page',
    {
      title: 'Read a documentation page',
      description:
        'One documentation page as Markdown, by its path (as search_docs returns it, e.g. "/en/docs/integrations" ' +
        'or "integrations"). An empty path is the documentation home page.',
      inputSchema: {
        path: z.string().max(300).describe('The page path or URL'),
        language,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ path, language: lang }) => {
      const page = findDocsPage(docsSlugsOf(path), lang)
      if (!page) {
        return {
          content: [{ type: 'text', text: m.mcp_doc_page_not_found({ path }) }],
          isError: true,
        }
      }
      return {
        content: [{ type: 'text', text: await pageMarkdown(page, lang) }],
        _meta: { url: `${getEnv().APP_URL}${markdownUrlFor(page, lang)}` },
      }
    },
  )
}
