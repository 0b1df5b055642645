// The blog's and changelog's feeds as a feed reader finds and reads them (autodiscovery from the page's head, then
// @rowanmanning/feed-parser), llms.txt as the llmstxt.org format defines it, and the pages and feeds as a cache
// revalidates them, against the built server.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseFeed } from '@rowanmanning/feed-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppServer, startAppServer } from '../../../../tests/support/app-server'
import { testPorts } from '../../../../tests/support/ports'

const port = testPorts.conformanceFeeds
const appUrl = `http://localhost:${port}`
const languages = ['en', 'zh'] as const
const kinds = ['blog', 'changelog'] as const
const feedTypes = ['application/rss+xml', 'application/atom+xml']

const folder = mkdtempSync(path.join(tmpdir(), 'hatch-conformance-feeds-'))
let server: AppServer | undefined

beforeAll(async () => {
  server = await startAppServer({ port, env: { DATA_DIR: folder, APP_URL: appUrl } })
}, 300_000)

afterAll(async () => {
  await server?.stop()
  rmSync(folder, { recursive: true, force: true })
})

async function text(url: string): Promise<{ response: Response; body: string }> {
  const response = await fetch(url)
  const body = await response.text()
  expect(response.status, `GET ${url}`).toBe(200)
  return { response, body }
}

const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined)

/** The feeds a page announces in its head, as a feed reader finds them: `<link rel="alternate">` with a feed type. */
function discoveredFeeds(html: string, pageUrl: string): { type: string; title?: string; url: string }[] {
  const head = /<head[^>]*>([\s\S]*?)<\/head>/i.exec(html)?.[1] ?? ''
  return [...head.matchAll(/<link\b[^>]*>/gi)].flatMap(([tag]) => {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? []
    const type = attribute(tag, 'type')?.toLowerCase() ?? ''
    const href = attribute(tag, 'href')
    if (!rel.includes('alternate') || !feedTypes.includes(type) || !href) return []
    return [{ type, title: attribute(tag, 'title'), url: new URL(href.replaceAll('&amp;', '&'), pageUrl).href }]
  })
}

interface LlmsLink {
  title: string
  url: string
  notes?: string
}

/**
 * llms.txt read as the llmstxt.org reference parser reads it: an H1 with the name, an optional blockquote, optional
 * prose, then H2 sections whose list items are `- [name](url)` with optional `: notes`. A line the item pattern does
 * not match whole is a mistake here, where the reference parser silently drops what it cannot read.
 */
function parseLlmsTxt(file: string): { title: string; summary?: string; sections: Map<string, LlmsLink[]> } {
  const [intro = '', ...parts] = file.split(/^## /m)
  const title = /^# (.+)$/m.exec(intro)?.[1]
  expect(title, 'llms.txt starts with an H1').toBeTruthy()
  expect(intro.trimStart().startsWith('# '), 'the H1 comes first').toBe(true)
  const summary = /^> (.+)$/m.exec(intro)?.[1]
  const sections = new Map<string, LlmsLink[]>()
  for (const part of parts) {
    const [heading = '', ...lines] = part.split('\n')
    const links = lines
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const item = /^-\s*\[(?<title>[^\]]+)\]\((?<url>[^)]+)\)(?::\s*(?<notes>.*))?$/.exec(line)
        expect(item, `a list item of "## ${heading}": - [name](url): notes\n${line}`).not.toBeNull()
        const { title = '', url = '', notes } = item?.groups ?? {}
        return { title, url, notes }
      })
    sections.set(heading.trim(), links)
  }
  return { title: title ?? '', summary, sections }
}

describe('the pages and feeds as a cache revalidates them (RFC 9110)', { timeout: 60_000 }, () => {
  // First in this file, so that each HEAD comes before any GET of its page. The pages are kept for everyone like the
  // docs; tests/integration/conformance-http.test.ts checks that cache on two processes.
  const perAnswer = new Set(['date', 'x-request-id', 'x-cache', 'connection', 'keep-alive'])
  const representation = (response: Response) =>
    Object.fromEntries([...response.headers].filter(([name]) => !perAnswer.has(name)))

  it("answers a HEAD nobody has asked for yet as the GET it stands for, and 304 to the GET's ETag", async () => {
    for (const resource of [
      '/en/changelog',
      '/zh/blog/introducing-hatch',
      '/zh/blog/atom.xml',
      '/en/changelog/rss.xml',
    ]) {
      const headers = { 'accept-encoding': 'br' }
      const head = await fetch(`${appUrl}${resource}`, { method: 'HEAD', headers })
      expect(head.status, `HEAD ${resource}`).toBe(200)
      expect(await head.text()).toBe('')
      const get = await fetch(`${appUrl}${resource}`, { headers })
      await get.arrayBuffer()
      expect(representation(head), `HEAD ${resource} before any GET`).toEqual(representation(get))
      const etag = get.headers.get('etag') ?? ''
      expect(etag, `a strong ETag on ${resource}`).toMatch(/^"[^"]+"$/)
      const again = await fetch(`${appUrl}${resource}`, { headers: { ...headers, 'if-none-match': etag } })
      expect(again.status, `${resource} revalidated`).toBe(304)
      expect(await again.text()).toBe('')
    }
  })
})

describe('feeds found and read as a feed reader does', { timeout: 120_000 }, () => {
  for (const lang of languages) {
    for (const kind of kinds) {
      it(`/${lang}/${kind} and its posts announce their RSS and Atom feeds in the head, and every item reads`, async () => {
        const indexUrl = `${appUrl}/${lang}/${kind}`
        const feeds = discoveredFeeds((await text(indexUrl)).body, indexUrl)
        expect(feeds.map((feed) => feed.type).sort(), `feeds in the head of ${indexUrl}`).toEqual([...feedTypes].sort())
        for (const feed of feeds) {
          expect(feed.url, 'the feed of the page language').toBe(
            `${appUrl}/${lang}/${kind}/${feed.type.includes('rss') ? 'rss' : 'atom'}.xml`,
          )
          expect(feed.title, 'a title a reader can show').toBeTruthy()
          const { response, body } = await text(feed.url)
          expect(response.headers.get('content-type')).toContain(feed.type)
          const parsed = parseFeed(body)
          expect(parsed.meta.type).toBe(feed.type.includes('rss') ? 'rss' : 'atom')
          expect(parsed.title, `${feed.url} has a title`).toBeTruthy()
          expect(parsed.language?.toLowerCase().startsWith(lang), `${feed.url} is in ${lang}`).toBe(true)
          expect(parsed.items.length, `${feed.url} has items`).toBeGreaterThan(0)
          for (const item of parsed.items) {
            expect(item.title, `an item of ${feed.url} has a title`).toBeTruthy()
            expect(item.url, `${item.title}: its link is a post of this feed`).toMatch(
              new RegExp(`^${appUrl}/${lang}/${kind}/[a-z0-9-]+$`),
            )
            expect(item.published, `${item.title}: a publication date`).toBeInstanceOf(Date)
            expect(Number.isNaN(item.published?.getTime()), `${item.title}: a valid date`).toBe(false)
            expect(item.description, `${item.title}: a summary`).toBeTruthy()
          }
        }
        // A post page announces the same feeds, and each item's link is a page.
        const items = parseFeed((await text(`${appUrl}/${lang}/${kind}/rss.xml`)).body).items
        for (const url of new Set(items.map((item) => item.url ?? ''))) {
          const post = await text(url)
          expect(
            discoveredFeeds(post.body, url).map((feed) => feed.url),
            `feeds in the head of ${url}`,
          ).toEqual(feeds.map((feed) => feed.url))
        }
      })
    }
  }
})

describe('llms.txt in the llmstxt.org format', { timeout: 60_000 }, () => {
  it('has a title, a summary and sections of `- [name](url): notes`, and keeps every post with its notes', async () => {
    const { response, body } = await text(`${appUrl}/llms.txt`)
    expect(response.headers.get('content-type')).toMatch(/^text\/(markdown|plain)/)
    const llms = parseLlmsTxt(body)
    expect(llms.summary, 'a blockquote summary').toBeTruthy()
    const links = [...llms.sections.values()].flat()
    for (const link of links) expect(link.url, link.title).toMatch(new RegExp(`^${appUrl}/`))
    for (const lang of languages) {
      for (const kind of kinds) {
        const items = parseFeed((await text(`${appUrl}/${lang}/${kind}/rss.xml`)).body).items
        for (const item of items) {
          const entry = links.find((link) => link.url === item.url)
          expect(entry, `${item.url} is listed in llms.txt`).toBeDefined()
          expect(entry?.title).toBe(item.title)
          expect(entry?.notes, `the notes of ${item.url}: what a reader of llms.txt learns of it`).toContain(
            item.description ?? '',
          )
          expect(entry?.notes, `the date of ${item.url}`).toContain(item.published?.toISOString().slice(0, 10))
        }
      }
    }
  })
})
