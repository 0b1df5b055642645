import { getLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'
import { getSiteSettings } from '#/server/settings'
import type { PostKind } from '../config'
import { atomFeed, type FeedChannel, type FeedFormat, rssFeed } from './feed-xml'
import { listPosts } from './posts'

const channelWords: Record<PostKind, { title: typeof m.blog_title; description: typeof m.blog_description }> = {
  blog: { title: m.blog_title, description: m.blog_description },
  changelog: { title: m.changelog_title, description: m.changelog_description },
}

/** `/{lang}/blog/rss.xml`, `…/atom.xml` and the changelog's: the language's posts, newest first. */
export async function postFeedResponse(kind: PostKind, format: FeedFormat): Promise<Response> {
  const lang = getLocale()
  const { productName } = await getSiteSettings(getDb())
  const words = channelWords[kind]
  const channel: FeedChannel = {
    kind,
    lang,
    appUrl: getEnv().APP_URL.replace(/\/+$/, ''),
    siteName: productName,
    title: words.title({}, { locale: lang }),
    description: words.description({}, { locale: lang }),
    posts: listPosts(kind, lang),
  }
  const body = format === 'rss' ? rssFeed(channel) : atomFeed(channel)
  const type = format === 'rss' ? 'application/rss+xml' : 'application/atom+xml'
  return new Response(body, { headers: { 'Content-Type': `${type}; charset=utf-8` } })
}
