import { describe, expect, it } from 'vitest'
import { otherHostAnswer, otherHostWarning } from '#/server/one-address'

const appUrl = 'http://localhost:3998'

describe('one address for every flow', () => {
  it('sends a page asked for on 127.0.0.1 to the same path and query on APP_URL, with a 308', () => {
    const answer = otherHostAnswer(new Request('http://127.0.0.1:3998/en/console/billing?plan=pro'), appUrl)
    expect(answer?.status, 'a permanent redirect that keeps the method').toBe(308)
    expect(answer?.headers.get('location')).toBe('http://localhost:3998/en/console/billing?plan=pro')
  })

  it('never sends a visitor to another site, whatever the path looks like', () => {
    const answer = otherHostAnswer(new Request('http://127.0.0.1:3998//evil.example/en/'), appUrl)
    expect(answer?.headers.get('location')).toBe('http://localhost:3998//evil.example/en/')
  })

  it('redirects a HEAD like its GET, and a www. name to the bare domain', () => {
    const answer = otherHostAnswer(
      new Request('https://www.hatch.example.com/zh/', { method: 'HEAD' }),
      'https://hatch.example.com',
    )
    expect(answer?.status).toBe(308)
    expect(answer?.headers.get('location')).toBe('https://hatch.example.com/zh/')
  })

  it('refuses a POST on another host with 421 and a translated message instead of dropping its body', async () => {
    const english = otherHostAnswer(
      new Request('http://127.0.0.1:3998/api/auth/sign-in/email', { method: 'POST', body: '{}' }),
      appUrl,
    )
    expect(english?.status).toBe(421)
    expect(await english?.json()).toEqual({
      code: 'MISDIRECTED_REQUEST',
      message: "This was sent to another address than the app's: use http://localhost:3998.",
    })
    const chinese = otherHostAnswer(
      new Request('http://127.0.0.1:3998/api/trpc/organizations.transferOwnership', {
        method: 'POST',
        body: '{}',
        headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
      }),
      appUrl,
    )
    expect(chinese?.status).toBe(421)
    const { message } = ((await chinese?.json()) ?? {}) as { message?: string }
    expect(message).toContain('请使用 http://localhost:3998')
  })

  it('answers on the public host, whatever the port or the letter case', () => {
    expect(otherHostAnswer(new Request('http://localhost:3998/en/'), appUrl)).toBeUndefined()
    expect(otherHostAnswer(new Request('http://LOCALHOST/en/', { method: 'POST' }), appUrl)).toBeUndefined()
  })

  it('lets monitors reach health and metrics on any address', () => {
    expect(otherHostAnswer(new Request('http://10.0.3.7:3000/api/health'), appUrl)).toBeUndefined()
    expect(otherHostAnswer(new Request('http://hatch-web-1:3000/api/metrics'), appUrl)).toBeUndefined()
    expect(otherHostAnswer(new Request('http://10.0.3.7:3000/api/healthz'), appUrl)?.status).toBe(308)
  })

  it('tells the developer once per host which address to open', () => {
    const warning = otherHostWarning(new Request('http://127.0.0.1:3000/en/'), 'http://localhost:3000')
    expect(warning).toContain('open http://localhost:3000')
    expect(otherHostWarning(new Request('http://127.0.0.1:3000/en/sign-in'), 'http://localhost:3000')).toBeUndefined()
    expect(otherHostWarning(new Request('http://localhost:3000/en/'), 'http://localhost:3000')).toBeUndefined()
  })
})
