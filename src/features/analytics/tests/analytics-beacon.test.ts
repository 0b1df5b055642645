import { randomBytes } from 'node:crypto'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { isbot } from 'isbot'
import { describe, expect, it } from 'vitest'
import {
  beaconInput,
  notCountedReason,
  pageLocationOf,
  referrerHostOf,
  screenClassOf,
} from '#/features/analytics/beacon-rules'
import { insightsScript } from '#/features/analytics/insights-script'
import { BeaconRateLimiter } from '#/features/analytics/server/beacon-rate-limiter'
import { insightsScriptGzipBytes, serveInsightsScript } from '#/features/analytics/server/script-response'
import { summarizeUserAgent } from '#/features/analytics/server/user-agent-summary'
import { visitorIdToday } from '#/features/analytics/server/visitor-id'
import { framingPolicy } from '#/server/content-security-policy'
import { entityTagOf } from '#/server/page-cache'

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'

describe('visitor ids rotate every day', () => {
  // A fresh random salt per day, as the database hands out.
  const salts = new Map<string, string>()
  const saltOfDay = async (day: string) => {
    if (!salts.has(day)) salts.set(day, randomBytes(32).toString('base64url'))
    return salts.get(day) as string
  }
  const visitor = { timeZone: 'UTC', site: 'hatch.example', ip: '203.0.113.7', userAgent: firefox }

  it('gives the same visitor one id all day long', async () => {
    const morning = await visitorIdToday(saltOfDay, { ...visitor, now: new Date('2026-05-04T00:01:00Z') })
    const night = await visitorIdToday(saltOfDay, { ...visitor, now: new Date('2026-05-04T23:59:00Z') })
    expect(night).toBe(morning)
  })

  it('gives the same visitor another id the next day', async () => {
    const today = await visitorIdToday(saltOfDay, { ...visitor, now: new Date('2026-05-04T12:00:00Z') })
    const tomorrow = await visitorIdToday(saltOfDay, { ...visitor, now: new Date('2026-05-05T00:00:01Z') })
    expect(tomorrow).not.toBe(today)
  })

  it('cuts days in the dashboard time zone', async () => {
    // 23:30 and 00:30 UTC are the same morning in Shanghai (UTC+8).
    const lateUtc = await visitorIdToday(saltOfDay, {
      ...visitor,
      timeZone: 'Asia/Shanghai',
      now: new Date('2026-05-04T23:30:00Z'),
    })
    const earlyUtc = await visitorIdToday(saltOfDay, {
      ...visitor,
      timeZone: 'Asia/Shanghai',
      now: new Date('2026-05-05T00:30:00Z'),
    })
    expect(earlyUtc).toBe(lateUtc)
  })

  it('tells apart two people on one address with different browsers, and the same browser on two addresses', async () => {
    const now = new Date('2026-05-04T12:00:00Z')
    const first = await visitorIdToday(saltOfDay, { ...visitor, now })
    expect(await visitorIdToday(saltOfDay, { ...visitor, userAgent: iphone, now })).not.toBe(first)
    expect(await visitorIdToday(saltOfDay, { ...visitor, ip: '198.51.100.1', now })).not.toBe(first)
  })

  it('holds neither the address nor the user agent in the id', async () => {
    const id = await visitorIdToday(saltOfDay, { ...visitor, now: new Date('2026-05-04T12:00:00Z') })
    expect(id).toMatch(/^[\w-]{22}$/)
    expect(id).not.toContain('203')
  })
})

describe('who is not counted', () => {
  const headers = (entries: Record<string, string>) => new Headers({ 'user-agent': firefox, ...entries })
  const cases: [string, Headers, string | undefined][] = [
    ['a person in Firefox', headers({}), undefined],
    [
      'Googlebot',
      headers({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }),
      'bot',
    ],
    ['curl', headers({ 'user-agent': 'curl/8.5.0' }), 'bot'],
    [
      'headless Chrome',
      headers({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/140.0.0.0 Safari/537.36' }),
      'bot',
    ],
    ['no user agent at all', new Headers(), 'bot'],
    ['Do-Not-Track', headers({ dnt: '1' }), 'do-not-track'],
    ['DNT: 0 is consent, not a refusal', headers({ dnt: '0' }), undefined],
    ['Global Privacy Control', headers({ 'sec-gpc': '1' }), 'global-privacy-control'],
    ['a prefetch', headers({ 'sec-purpose': 'prefetch' }), 'prefetch'],
    ['a prerender', headers({ 'sec-purpose': 'prefetch;prerender' }), 'prefetch'],
    ['an old-style prefetch', headers({ purpose: 'prefetch' }), 'prefetch'],
  ]
  it.each(cases)('%s', (_, requestHeaders, reason) => {
    expect(notCountedReason(requestHeaders, isbot)).toBe(reason)
  })
})

describe('beacon validation', () => {
  const view = { type: 'pageview', id: 'abcdefgh12', url: 'https://hatch.example/en/docs?utm_source=news' }
  const cases: [string, unknown, boolean][] = [
    ['a page view', view, true],
    [
      'a page view with everything',
      { ...view, entry: true, referrer: 'https://news.example/item', language: 'zh-CN', screenWidth: 390 },
      true,
    ],
    ['time on page', { type: 'leave', id: 'abcdefgh12', url: view.url, durationMs: 12_000 }, true],
    ['an unknown type', { ...view, type: 'click' }, false],
    ['no id', { ...view, id: undefined }, false],
    ['an id too short', { ...view, id: 'abc' }, false],
    ['an id with markup', { ...view, id: '<script>x</script>' }, false],
    ['a javascript: URL', { ...view, url: 'javascript:alert(1)' }, false],
    ['a relative URL', { ...view, url: '/en/docs' }, false],
    ['an unknown field', { ...view, email: 'someone@example.com' }, false],
    ['a language that is not a language tag', { ...view, language: 'en US; drop table' }, false],
    ['a negative screen', { ...view, screenWidth: -1 }, false],
    ['a screen as text', { ...view, screenWidth: '390' }, false],
    ['time on page without a duration', { type: 'leave', id: 'abcdefgh12', url: view.url }, false],
    ['time on page over a day', { type: 'leave', id: 'abcdefgh12', url: view.url, durationMs: 90_000_000 }, false],
    ['a referrer that is no URL', { ...view, referrer: 'yesterday' }, false],
    ['an array', [view], false],
  ]
  it.each(cases)('%s', (_, body, valid) => {
    expect(beaconInput.safeParse(body).success).toBe(valid)
  })

  it('keeps the path without its query, and only the campaign parameters', () => {
    const location = pageLocationOf(
      new URL('https://hatch.example/en/docs/billing?utm_source=Newsletter&utm_campaign=launch&email=a@b.c'),
    )
    expect(location).toEqual({
      path: '/en/docs/billing',
      utmSource: 'newsletter',
      utmMedium: null,
      utmCampaign: 'launch',
    })
  })

  it('refuses a path or a campaign past its limit', () => {
    expect(pageLocationOf(new URL(`https://hatch.example/${'a'.repeat(600)}`))).toBeUndefined()
    expect(pageLocationOf(new URL(`https://hatch.example/?utm_campaign=${'x'.repeat(101)}`))).toBeUndefined()
  })
})

describe('what a page view records', () => {
  it('names the referring site only for a page load, never the site itself', () => {
    const siteHost = 'hatch.example'
    expect(referrerHostOf({ entry: true, referrer: 'https://www.news.example/a?b=c', siteHost })).toBe('news.example')
    expect(referrerHostOf({ entry: true, referrer: '', siteHost })).toBe('')
    expect(referrerHostOf({ entry: true, referrer: 'https://www.hatch.example/en/', siteHost })).toBeNull()
    expect(referrerHostOf({ entry: false, referrer: 'https://news.example/', siteHost })).toBeNull()
  })

  it('sorts screens into four sizes', () => {
    expect([undefined, 360, 800, 1280, 2560].map(screenClassOf)).toEqual([null, 'phone', 'tablet', 'laptop', 'desktop'])
  })

  it('tells browser, system and device from the user agent', () => {
    expect(summarizeUserAgent(firefox)).toEqual({ browser: 'Firefox', os: 'Linux', device: 'desktop' })
    expect(summarizeUserAgent(iphone)).toEqual({ browser: 'Mobile Safari', os: 'iOS', device: 'mobile' })
  })
})

describe('beacons per address', () => {
  it('accepts the limit per minute from one address, then refuses until the next minute', () => {
    const limiter = new BeaconRateLimiter()
    const minute = Date.parse('2026-05-04T12:00:00Z')
    const answers = Array.from({ length: 4 }, () => limiter.allow('203.0.113.7', 3, minute + 1000))
    expect(answers).toEqual([true, true, true, false])
    expect(limiter.allow('198.51.100.1', 3, minute + 2000), 'another address has its own count').toBe(true)
    expect(limiter.allow('203.0.113.7', 3, minute + 60_000), 'a new minute starts afresh').toBe(true)
  })

  it('has no limit when set to 0', () => {
    const limiter = new BeaconRateLimiter()
    expect(Array.from({ length: 1000 }, () => limiter.allow('203.0.113.7', 0))).toEqual(Array(1000).fill(true))
  })
})

describe('the page-view script', () => {
  it('stays under 2 KB gzipped, and is cached and revalidated by its ETag', async () => {
    expect(insightsScriptGzipBytes).toBeLessThan(2048)
    const first = serveInsightsScript(
      new Request('http://hatch.test/api/insights.js', { headers: { 'accept-encoding': 'gzip' } }),
    )
    expect(first.headers.get('content-encoding')).toBe('gzip')
    expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/)
    const etag = first.headers.get('etag') ?? ''
    const again = serveInsightsScript(
      new Request('http://hatch.test/api/insights.js', {
        headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
      }),
    )
    expect(again.status).toBe(304)
  })

  const scriptUrl = 'http://hatch.test/api/insights.js'
  const askFor = (headers: Record<string, string>, method = 'GET') =>
    serveInsightsScript(new Request(scriptUrl, { method, headers }))
  const decoded = async (answer: Response) => {
    const bytes = new Uint8Array(await answer.arrayBuffer())
    const encoding = answer.headers.get('content-encoding')
    const plain = encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes
    return new TextDecoder().decode(plain)
  }

  it('sends brotli, gzip or plain as the browser prefers, and never a coding it refuses with q=0', async () => {
    const cases: [string, string | null][] = [
      ['br, gzip', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0', null],
      ['gzip;q=0, deflate', null],
      ['*', 'br'],
      ['*;q=0', null],
      ['identity', null],
      ['', null],
    ]
    for (const [acceptEncoding, expected] of cases) {
      const answer = askFor({ 'accept-encoding': acceptEncoding })
      expect(answer.headers.get('content-encoding'), `Accept-Encoding: ${acceptEncoding}`).toBe(expected)
      expect(answer.headers.get('vary')).toBe('Accept-Encoding')
      expect(await decoded(answer), `Accept-Encoding: ${acceptEncoding} still gets the script`).toBe(insightsScript)
    }
  })

  it('gives each body (brotli, gzip, plain) its own strong ETag, taken from the bytes it sends', async () => {
    const tags = []
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const answer = askFor({ 'accept-encoding': acceptEncoding })
      const etag = answer.headers.get('etag') ?? ''
      expect(etag, `a strong ETag for ${acceptEncoding}`).toMatch(/^"[^"]+"$/)
      const bytes = new Uint8Array(await answer.arrayBuffer())
      const suffix = acceptEncoding === 'br' ? '-br' : acceptEncoding === 'gzip' ? '-gz' : ''
      expect(etag, `the ${acceptEncoding} body's tag comes from its bytes`).toBe(entityTagOf(bytes, suffix))
      expect(answer.headers.get('content-length'), `the ${acceptEncoding} body's length`).toBe(String(bytes.length))
      tags.push(etag)
    }
    expect(new Set(tags).size, 'three different bodies, three different tags').toBe(3)
  })

  it('answers 304 to If-None-Match naming the body it would send, weak or strong, or *', async () => {
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const etag = askFor({ 'accept-encoding': acceptEncoding }).headers.get('etag') ?? ''
      for (const ifNoneMatch of [etag, `W/${etag}`, `"not-this-one", ${etag}`, '*']) {
        for (const method of ['GET', 'HEAD']) {
          const answer = askFor({ 'accept-encoding': acceptEncoding, 'if-none-match': ifNoneMatch }, method)
          const asked = `${method} (${acceptEncoding}) with If-None-Match: ${ifNoneMatch}`
          expect(answer.status, asked).toBe(304)
          expect(answer.headers.get('etag'), `${asked}: the 304 names the body the client holds`).toBe(etag)
          expect(answer.headers.get('cache-control'), asked).toBe('public, max-age=3600')
          expect(answer.headers.get('vary'), asked).toBe('Accept-Encoding')
          expect(answer.headers.get('content-encoding'), asked).toBeNull()
          expect(await answer.text(), asked).toBe('')
        }
      }
    }
  })

  it("sends the script to a revalidation with another coding's ETag: the client holds a different body", async () => {
    const tagOf = (acceptEncoding: string) => askFor({ 'accept-encoding': acceptEncoding }).headers.get('etag') ?? ''
    const revalidations: [held: string, asked: string][] = [
      ['gzip', 'br'],
      ['br', 'gzip'],
      ['gzip', 'identity'],
      ['identity', 'gzip'],
    ]
    for (const [held, asked] of revalidations) {
      const answer = askFor({ 'accept-encoding': asked, 'if-none-match': tagOf(held) })
      expect(answer.status, `${asked} asked for with the ${held} body's ETag`).toBe(200)
      expect(await decoded(answer)).toBe(insightsScript)
    }
  })

  it("answers HEAD with GET's headers, its length included, and no body", async () => {
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const get = askFor({ 'accept-encoding': acceptEncoding })
      const head = askFor({ 'accept-encoding': acceptEncoding }, 'HEAD')
      expect(head.status).toBe(200)
      expect(Object.fromEntries(head.headers), `HEAD (${acceptEncoding})`).toEqual(Object.fromEntries(get.headers))
      expect(head.headers.get('content-length'), `HEAD (${acceptEncoding}) says how long GET's body is`).toBe(
        String((await get.arrayBuffer()).byteLength),
      )
      expect(head.body, `HEAD (${acceptEncoding}) has no body`).toBeNull()
      expect(
        head.headers.get('content-security-policy'),
        "a script file's own policy, so it gets no page policy with a nonce for one request",
      ).toBe(framingPolicy)
    }
  })
})
