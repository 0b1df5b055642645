import { describe, expect, it } from 'vitest'
import { atomFeed, type FeedChannel, rssFeed } from '#/features/blog/server/feed-xml'

const channel = (posts: FeedChannel['posts']): FeedChannel => ({
  kind: 'blog',
  lang: 'en',
  appUrl: 'https://hatch.example',
  siteName: 'Hatch & Co',
  title: 'Blog',
  description: 'News <and> notes',
  posts,
})

const post = {
  slug: 'tags-and-quotes',
  url: '/blog/tags-and-quotes',
  title: 'Tags <b> & "quotes"',
  description: 'Escaped, never markup',
  date: new Date('2026-11-02T00:00:00Z'),
  author: 'Ada & Lin',
  tags: ['<script>'],
}

describe('feeds', () => {
  it('escape every text, name each post by its absolute URL and date it', () => {
    const rss = rssFeed(channel([post]))
    expect(rss).toContain('<title>Tags &lt;b&gt; &amp; &quot;quotes&quot;</title>')
    expect(rss).toContain('<link>https://hatch.example/en/blog/tags-and-quotes</link>')
    expect(rss).toContain('<pubDate>Mon, 02 Nov 2026 00:00:00 GMT</pubDate>')
    expect(rss).toContain('<category>&lt;script&gt;</category>')
    expect(rss).not.toContain('<script>')
    const atom = atomFeed(channel([post]))
    expect(atom).toContain('<id>https://hatch.example/en/blog/tags-and-quotes</id>')
    expect(atom).toContain('<updated>2026-11-02T00:00:00.000Z</updated>')
    expect(atom).toContain('<author><name>Ada &amp; Lin</name></author>')
    expect(atom).toContain('<title>Blog · Hatch &amp; Co</title>')
  })

  it('are valid when nothing is published yet', () => {
    expect(rssFeed(channel([]))).not.toContain('<item>')
    expect(atomFeed(channel([]))).toContain('<updated>1970-01-01T00:00:00.000Z</updated>')
  })
})
