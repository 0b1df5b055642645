import type { Locale } from '#/lib/i18n'
import { escapeXml } from '#/server/sitemap'
import type { PostKind } from '../config'
import type { PostSummary } from './posts'

export type FeedFormat = 'rss' | 'atom'

export interface FeedChannel {
  kind: PostKind
  lang: Locale
  /** The site's address without a trailing slash. */
  appUrl: string
  siteName: string
  title: string
  description: string
  posts: PostSummary[]
}

const pageUrl = (channel: FeedChannel, path: string) => `${channel.appUrl}/${channel.lang}${path}`

/** RSS 2.0: the channel, then each post (title, link, guid, date, author, tags, summary). */
export function rssFeed(channel: FeedChannel): string {
  const self = pageUrl(channel, `/${channel.kind}/rss.xml`)
  const items = channel.posts.map((post) => {
    const link = escapeXml(pageUrl(channel, post.url))
    const categories = post.tags.map((tag) => `      <category>${escapeXml(tag)}</category>`).join('\n')
    return [
      '    <item>',
      `      <title>${escapeXml(post.title)}</title>`,
      `      <link>${link}</link>`,
      `      <guid isPermaLink="true">${link}</guid>`,
      `      <pubDate>${post.date.toUTCString()}</pubDate>`,
      `      <dc:creator>${escapeXml(post.author)}</dc:creator>`,
      ...(categories ? [categories] : []),
      `      <description>${escapeXml(post.description)}</description>`,
      '    </item>',
    ].join('\n')
  })
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeXml(`${channel.title} · ${channel.siteName}`)}</title>
    <link>${escapeXml(pageUrl(channel, `/${channel.kind}`))}</link>
    <description>${escapeXml(channel.description)}</description>
    <language>${channel.lang === 'zh' ? 'zh-CN' : 'en'}</language>
    <atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>
${channel.posts[0] ? `    <lastBuildDate>${channel.posts[0].date.toUTCString()}</lastBuildDate>\n` : ''}${items.join('\n')}
  </channel>
</rss>
`
}

/** Atom 1.0: the feed, then each post as an entry (id, title, link, dates, author, categories, summary). */
export function atomFeed(channel: FeedChannel): string {
  const self = pageUrl(channel, `/${channel.kind}/atom.xml`)
  const updated = (channel.posts[0]?.date ?? new Date(0)).toISOString()
  const entries = channel.posts.map((post) => {
    const link = escapeXml(pageUrl(channel, post.url))
    return [
      '  <entry>',
      `    <id>${link}</id>`,
      `    <title>${escapeXml(post.title)}</title>`,
      `    <link href="${link}"/>`,
      `    <published>${post.date.toISOString()}</published>`,
      `    <updated>${post.date.toISOString()}</updated>`,
      `    <author><name>${escapeXml(post.author)}</name></author>`,
      ...post.tags.map((tag) => `    <category term="${escapeXml(tag)}"/>`),
      `    <summary>${escapeXml(post.description)}</summary>`,
      '  </entry>',
    ].join('\n')
  })
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${channel.lang === 'zh' ? 'zh-CN' : 'en'}">
  <id>${escapeXml(self)}</id>
  <title>${escapeXml(`${channel.title} · ${channel.siteName}`)}</title>
  <subtitle>${escapeXml(channel.description)}</subtitle>
  <link rel="self" href="${escapeXml(self)}"/>
  <link href="${escapeXml(pageUrl(channel, `/${channel.kind}`))}"/>
  <updated>${updated}</updated>
${entries.join('\n')}
</feed>
`
}
