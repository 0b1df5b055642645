import { getLocale } from '#/lib/i18n'
import { findDocsPage, pageMarkdown } from './llms'

/** A docs page's raw Markdown (its URL plus `.md`), in the language of the URL; 404 for an unknown page. */
export async function docsMarkdownResponse(slugs: string[]): Promise<Response> {
  const lang = getLocale()
  const page = findDocsPage(slugs, lang)
  if (!page) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain' } })
  return new Response(await pageMarkdown(page, lang), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } })
}
