import { notFound } from '@tanstack/react-router'
import { getLocale, type Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { PostKind } from './config'
import { fetchPost, fetchPostList } from './posts-fn'
import type { PostInfo, PostListInfo } from './server/posts'

export function loadPostList(kind: PostKind): Promise<PostListInfo> {
  return fetchPostList({ data: { kind, lang: getLocale() } })
}

/** A post's info, then its compiled content, before rendering; an unknown slug is the layout's not-found page. */
export async function loadPost(kind: PostKind, slug: string) {
  const info = await fetchPost({ data: { kind, slug, lang: getLocale() } })
  if (!info.found) throw notFound()
  // The posts' UI stays out of the route tree every page loads until a post needs it.
  const { postContent } = await import('./components/post-content')
  await postContent[kind].preload(info.path)
  return info
}

const indexTitles: Record<PostKind, typeof m.blog_title> = { blog: m.blog_title, changelog: m.changelog_title }

const feedFormats = [
  { path: 'rss.xml', type: 'application/rss+xml', name: 'RSS' },
  { path: 'atom.xml', type: 'application/atom+xml', name: 'Atom' },
] as const

/** The index's feeds in the page's language, in the head: where feed readers look for them (RSS autodiscovery). */
function feedLinks(kind: PostKind, locale: Locale) {
  const feed = indexTitles[kind]({}, { locale })
  return feedFormats.map(({ path, type, name }) => ({
    rel: 'alternate',
    type,
    title: m.blog_feed_link({ feed, format: name }, { locale }),
    href: localizeHref(`/${kind}/${path}`, { locale }),
  }))
}

export function postListHead(kind: PostKind) {
  return { meta: [{ title: indexTitles[kind]() }], links: feedLinks(kind, getLocale()) }
}

export function postHead(info: PostInfo | undefined) {
  if (!info?.found) return {}
  return {
    meta: [{ title: info.title }, ...(info.description ? [{ name: 'description', content: info.description }] : [])],
    links: feedLinks(info.kind, info.lang),
  }
}
