import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { unreadableRequestTarget, unreadableTargetAnswer } from '#/server/request-path'

const origin = 'https://hatch.example.com'
/** What the server's URL parser makes of a raw request target (it encodes spaces and raw control characters). */
const urlOf = (target: string) => new URL(target, origin).href

describe('request addresses the server can read', () => {
  it('lets through every address the app makes, encoded or not', () => {
    for (const target of [
      '/',
      '/en/docs/getting-started',
      '/zh/docs/%E7%BB%84%E7%BB%87',
      '/api/trpc/organizations.members?batch=1&input=%7B%220%22%3A%7B%22json%22%3A%7B%22q%22%3A%22a%5Cnb%22%7D%7D%7D',
      '/api/search?query=%E7%BB%84%E7%BB%87&locale=zh',
      '/en/docs?q=a+b',
      '/api/auth/callback/google?code=4%2F0Ab&state=x',
      // Typed text may carry a tab or a line break in the query; the database stores those.
      '/api/search?query=a%09b%0Ac',
      '/en/docs/%F0%9F%91%8B',
      '/files/a%2Fb',
      '/en/#%zz',
    ]) {
      expect(unreadableRequestTarget(urlOf(target)), target).toBeNull()
    }
  })

  it('refuses percent-encoding that is not UTF-8 or not an escape, in the path and in the query', () => {
    expect(unreadableRequestTarget(urlOf('/%C0%80'))).toBe('undecodable-path')
    expect(unreadableRequestTarget(urlOf('/en/pay/x%ED%A0%80'))).toBe('undecodable-path')
    expect(unreadableRequestTarget(urlOf('/api/files/%E0%A4%A'))).toBe('undecodable-path')
    expect(unreadableRequestTarget(urlOf('/en/docs/%zz'))).toBe('undecodable-path')
    expect(unreadableRequestTarget(urlOf('/api/trpc/%C0%80?input=%7B%7D'))).toBe('undecodable-path')
    expect(unreadableRequestTarget(urlOf('/en/docs?q=%FF'))).toBe('undecodable-query')
    expect(unreadableRequestTarget(urlOf('/en/docs?q=100%'))).toBe('undecodable-query')
  })

  it('refuses a control character in the path and a NUL in the query', () => {
    expect(unreadableRequestTarget(urlOf('/en/accept-invitation/a%00b'))).toBe('control-character-in-path')
    expect(unreadableRequestTarget(urlOf('/api/files/avatars/a%00b/x.webp'))).toBe('control-character-in-path')
    expect(unreadableRequestTarget(urlOf('/en/pay/a%0Ab'))).toBe('control-character-in-path')
    expect(unreadableRequestTarget(urlOf('/en/pay/a%7Fb'))).toBe('control-character-in-path')
    expect(unreadableRequestTarget(urlOf('/api/auth/get-session?x=%00'))).toBe('nul-in-query')
  })

  it('agrees with decodeURIComponent on any path: what it cannot decode is refused, the rest read', () => {
    const percentEscape = fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
    const segment = fc.array(fc.oneof(percentEscape, fc.constantFrom('a', '-', '%', '%g', '%4')), { maxLength: 6 })
    fc.assert(
      fc.property(segment, (parts) => {
        const path = `/en/${parts.join('')}`
        let decoded: string | undefined
        try {
          decoded = decodeURIComponent(path)
        } catch {
          decoded = undefined
        }
        const refusal = unreadableRequestTarget(urlOf(path))
        if (decoded === undefined) expect(refusal).toBe('undecodable-path')
        else if ([...decoded].some((character) => character < ' ' || character === '\u007f'))
          expect(refusal).toBe('control-character-in-path')
        else expect(refusal).toBeNull()
      }),
      { numRuns: 2000, seed: 51 },
    )
  })

  it('answers one 400 with a code the client translates, in the visitor’s language', async () => {
    const english = unreadableTargetAnswer(new Request(urlOf('/%C0%80')))
    expect(english.status).toBe(400)
    expect(english.headers.get('cache-control')).toBe('no-store')
    expect(await english.json()).toEqual({
      code: 'INVALID_CHARACTERS',
      message: 'The request contains characters that are not allowed.',
    })
    const chinese = unreadableTargetAnswer(new Request(urlOf('/zh/%C0%80'), { headers: { 'accept-language': 'zh' } }))
    expect(await chinese.json()).toMatchObject({ code: 'INVALID_CHARACTERS', message: '请求包含不允许的字符。' })
  })
})
