import { notFound } from '@tanstack/react-router'
import { getLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
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

const indexTitles: Record<PostKind, () => string> = { blog: m.blog_title, changelog: m.changelog_title }

export function postListHead(kind: PostKind) {
  return { meta: [{ title: indexTitles[kind]() }] }
}

export function postHead(info: PostInfo | undefined) {
  if (!info?.found) return {}
  return {
    meta: [{ title: info.title }, ...(info.description ? [{ name: 'description', content: info.description }] : [])],
  }
}
