import { blog, changelog } from 'collections/server'
import { loader } from 'fumadocs-core/source'
import { type Locale, localeNames, locales } from '#/lib/i18n'
import { type PostKind, postBaseUrls, postKinds, postsI18n } from '../config'
import { type PostListRequest, type PostRequest, postListRequest, postRequest } from '../schemas'

/** Every post and changelog entry in both languages, compiled at build time (../content, see ../collections.ts). */
export const postSources = {
  blog: loader({ source: blog.toFumadocsSource(), baseUrl: postBaseUrls.blog, i18n: postsI18n }),
  changelog: loader({ source: changelog.toFumadocsSource(), baseUrl: postBaseUrls.changelog, i18n: postsI18n }),
}

type PostPage = NonNullable<ReturnType<(typeof postSources)['blog']['getPage']>>

/** What an index shows of a post, and a feed's item. */
export interface PostSummary {
  slug: string
  /** The URL without the language, as the router takes it (`/blog/introducing-hatch`). */
  url: string
  title: string
  description: string
  date: Date
  author: string
  tags: string[]
}

function summary(page: PostPage): PostSummary {
  return {
    slug: page.slugs.join('/'),
    url: page.url,
    title: page.data.title ?? page.slugs.join('/'),
    description: page.data.description ?? '',
    date: page.data.date,
    author: page.data.author,
    tags: page.data.tags,
  }
}

/** The posts of one kind in one language, newest first. */
export function listPosts(kind: PostKind, lang: Locale): PostSummary[] {
  return postSources[kind]
    .getPages(lang)
    .map(summary)
    .sort((a, b) => b.date.getTime() - a.date.getTime() || a.slug.localeCompare(b.slug))
}

export function findPost(kind: PostKind, slug: string, lang: Locale): PostPage | undefined {
  return postSources[kind].getPage([slug], lang)
}

export type PostListInfo = { kind: PostKind; lang: Locale; posts: PostSummary[] }

export type PostInfo =
  | { found: false; kind: PostKind; lang: Locale }
  | (PostSummary & { found: true; kind: PostKind; lang: Locale; path: string })

/** An index's posts; a malformed request is an empty list of the blog in English (no page links to one). */
export function postListInfo(request: PostListRequest): PostListInfo {
  const parsed = postListRequest.safeParse(request)
  const { kind, lang } = parsed.success ? parsed.data : { kind: 'blog' as const, lang: 'en' as const }
  return { kind, lang, posts: parsed.success ? listPosts(kind, lang) : [] }
}

/** One post with where its compiled content is; not found for an unknown or malformed slug. */
export function postInfo(request: PostRequest): PostInfo {
  const parsed = postRequest.safeParse(request)
  if (!parsed.success) return { found: false, kind: 'blog', lang: 'en' }
  const { kind, slug, lang } = parsed.data
  const page = findPost(kind, slug, lang)
  if (!page) return { found: false, kind, lang }
  return { ...summary(page), found: true, kind, lang, path: page.path }
}

/** The locale-free URLs of the indexes and every post, for the sitemap. */
export function postPaths(): string[] {
  return postKinds.flatMap((kind) => [
    postBaseUrls[kind],
    ...postSources[kind].getPages(locales[0]).map((page) => page.url),
  ])
}

/**
 * The blog's and changelog's part of /llms.txt: each post in each language, with its date and summary as the link's
 * notes. The format (llmstxt.org) allows only `- [name](url): notes` in a list: anything between the link and the
 * colon, as the date once was, made the reference parser drop the notes.
 */
export function postsLlmsSection(appUrl: string): string {
  const sections = postKinds.flatMap((kind) =>
    locales.map((lang) => {
      const lines = listPosts(kind, lang).map((post) => {
        const notes = [post.date.toISOString().slice(0, 10), post.description].filter(Boolean).join(' — ')
        return `- [${post.title}](${appUrl}/${lang}${post.url}): ${notes}`
      })
      return `## ${kind === 'blog' ? 'Blog' : 'Changelog'}, ${localeNames[lang]} (${lang})\n\n${lines.join('\n')}`
    }),
  )
  return `${sections.join('\n\n')}\n`
}
