import { type Locale, localeNames, locales } from '#/lib/i18n'
import { plansMarkdownTable } from '#/lib/plans-table'
import { markdownUrlFor } from './page-info'
import { type DocsPage, docsSource } from './source'

/** One page as Markdown: title, description, then the processed body (MDX components rendered to Markdown). */
export async function pageMarkdown(page: DocsPage, lang: Locale): Promise<string> {
  // Components that draw from the product's definitions are written out as Markdown here.
  const body = (await page.data.getText('processed')).replaceAll('<PlansTable />', plansMarkdownTable(lang))
  const description = page.data.description ? `\n\n> ${page.data.description}` : ''
  return `# ${page.data.title}${description}\n\n${body.trim()}\n`
}

export function findDocsPage(slugs: string[], lang: Locale): DocsPage | undefined {
  return docsSource.getPage(slugs, lang)
}

/** /llms.txt: every page in both languages, each with its one-line description, linking to its Markdown. */
export function llmsIndex(siteName: string, appUrl: string): string {
  const sections = locales.map((lang) => {
    const lines = docsSource
      .getPages(lang)
      .map((page) => {
        const description = page.data.description ? `: ${page.data.description}` : ''
        return `- [${page.data.title}](${appUrl}${markdownUrlFor(page, lang)})${description}`
      })
      .join('\n')
    return `## ${localeNames[lang]} (${lang})\n\n${lines}`
  })
  return `# ${siteName} documentation\n\n> Every documentation page, in English and Chinese, as Markdown.\n\n${sections.join('\n\n')}\n`
}

/** /llms-full.txt: every page in both languages, in full. */
export async function llmsFull(appUrl: string): Promise<string> {
  const pages = locales.flatMap((lang) => docsSource.getPages(lang).map((page) => ({ page, lang })))
  const rendered = await Promise.all(
    pages.map(async ({ page, lang }) => `${await pageMarkdown(page, lang)}\nSource: ${appUrl}/${lang}${page.url}\n`),
  )
  return rendered.join('\n---\n\n')
}

/** The locale-free URL of every docs page (each exists in both languages), for the sitemap. */
export function docsPaths(): string[] {
  return docsSource.getPages(locales[0]).map((page) => page.url)
}
