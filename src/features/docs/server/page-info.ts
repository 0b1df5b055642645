import { setResponseStatus } from '@tanstack/react-start/server'
import type { SerializedPageTree } from 'fumadocs-core/source/client'
import { intlLocales, type Locale } from '#/lib/i18n'
import { InputRefusal } from '#/lib/input-refusal'
import { isAiConfigured } from '#/server/ai/provider'
import { appDocsFolders } from '#/server/app-docs.gen'
import type { Database } from '#/server/db/client'
import { getDb } from '#/server/db/database'
import { getSiteSettings } from '#/server/settings'
import { docsContentPath } from '../config'
import { type DocsPageRequest, docsPageRequest } from '../schemas'
import { type DocsPage, docsSource } from './source'

// The page trees only change with a new build: serialize each language's once.
const serializedTrees = new Map<Locale, Promise<SerializedPageTree>>()

function serializedTree(lang: Locale): Promise<SerializedPageTree> {
  let tree = serializedTrees.get(lang)
  if (!tree) {
    tree = docsSource.serializePageTree(docsSource.getPageTree(lang))
    serializedTrees.set(lang, tree)
  }
  return tree
}

/** "Edit on GitHub": the page's file on the configured branch of the source repository. */
export function editUrlFor(page: Pick<DocsPage, 'path' | 'type'>, repositoryUrl: string, branch: string): string {
  const repository = repositoryUrl.replace(/\/+$/, '').replace(/\.git$/, '')
  const folder = appDocsFolders[page.type] ?? docsContentPath
  const filePath = `${folder}/${page.path}`.split('/').map(encodeURIComponent).join('/')
  return `${repository}/blob/${encodeURIComponent(branch).replaceAll('%2F', '/')}/${filePath}`
}

/** The raw Markdown of a page, for AI assistants: its URL plus `.md`. */
export function markdownUrlFor(page: Pick<DocsPage, 'url'>, lang: Locale): string {
  return `/${lang}${page.url}.md`
}

export interface LastUpdated {
  /** YYYY-MM-DD, for the time element. */
  date: string
  text: string
}

/**
 * The date is written here rather than in the browser: formatting a first date makes the browser load its date data,
 * one of the longest tasks while a docs page starts on a phone. In the page's language, where the browser's own would
 * show an English date on a Chinese page.
 */
function lastUpdatedOn(date: Date, lang: Locale): LastUpdated {
  const text = new Intl.DateTimeFormat(intlLocales[lang], { dateStyle: 'long', timeZone: 'UTC' }).format(date)
  return { date: date.toISOString().slice(0, 10), text }
}

export type DocsPageInfo =
  | { found: false; lang: Locale; siteName: string; pageTree: SerializedPageTree; aiConfigured: boolean }
  | {
      found: true
      lang: Locale
      siteName: string
      pageTree: SerializedPageTree
      /** "Ask the docs" answers only when the operator configured a model; else it says so. */
      aiConfigured: boolean
      /** The collection holding the page: the core's (`docs`) or an installed app's. */
      collection: string
      /** The MDX file, relative to its collection's folder: the key the compiled page is loaded by. */
      path: string
      url: string
      title: string
      description: string | undefined
      /** When the page's file last changed, written out on the server in the page's language. */
      lastUpdated: LastUpdated | undefined
      editUrl: string
      markdownUrl: string
      showFooterNavigation: boolean
    }

export async function getDocsPageInfo(request: DocsPageRequest, db: Database): Promise<DocsPageInfo> {
  const [settings, pageTree] = await Promise.all([getSiteSettings(db), serializedTree(request.lang)])
  const siteName = settings.productName
  const aiConfigured = isAiConfigured()
  const page = docsSource.getPage(request.slugs, request.lang)
  if (!page) return { found: false, lang: request.lang, siteName, pageTree, aiConfigured }
  return {
    found: true,
    lang: request.lang,
    siteName,
    pageTree,
    aiConfigured,
    collection: page.type,
    path: page.path,
    url: page.url,
    title: page.data.title ?? page.slugs.at(-1) ?? siteName,
    description: page.data.description,
    lastUpdated: page.data.lastModified ? lastUpdatedOn(page.data.lastModified, request.lang) : undefined,
    editUrl: editUrlFor(page, settings.sourceRepositoryUrl, settings.docsEditBranch),
    markdownUrl: markdownUrlFor(page, request.lang),
    showFooterNavigation: settings.docsFooterNavigation,
  }
}

/** A client mistake in a docs page request; answered with 400 and this message. */
class InvalidDocsPageRequest extends InputRefusal {
  override name = 'InvalidDocsPageRequest'
}

/** The docs server function's body: checks the input (400 with a message naming each bad field), then answers. */
export async function answerDocsPageRequest(input: unknown): Promise<DocsPageInfo> {
  const parsed = docsPageRequest.safeParse(input)
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
    setResponseStatus(400)
    throw new InvalidDocsPageRequest(`Invalid docs page request (${details.join('; ')})`)
  }
  return getDocsPageInfo(parsed.data, getDb())
}
