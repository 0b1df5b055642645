import { describe, expect, it } from 'vitest'
import {
  checkWebhookDestination,
  type HostLookup,
  isPublicAddress,
  parseWebhookUrl,
} from '#/server/outbound/destination'

/** A resolver that answers from a table, as a DNS zone an attacker controls would. */
const zone =
  (records: Record<string, string[]>): HostLookup =>
  async (hostname) => {
    const addresses = records[hostname]
    if (!addresses) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }

describe('which addresses a webhook may reach', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.169.254', 'cloud metadata (link-local)'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fd00:ec2::254', 'cloud metadata (unique local)'],
    ['fc00::1', 'unique local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'loopback inside a mapped IPv6 address'],
    ['::ffff:7f00:1', 'loopback mapped, in hex'],
    ['::ffff:169.254.169.254', 'metadata inside a mapped IPv6 address'],
    ['64:ff9b::a9fe:a9fe', 'metadata through NAT64'],
    ['2002:7f00:1::', 'loopback through 6to4'],
    ['2002:c0a8:101::1', 'private through 6to4'],
    ['not an address', 'not an address at all'],
  ])('%s is refused (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })
})

describe('a webhook URL', () => {
  it.each([
    ['ftp://hooks.example.com/in', 'not-http'],
    ['file:///etc/passwd', 'not-http'],
    ['javascript:alert(1)', 'not-http'],
    ['https://user:secret@hooks.example.com/in', 'has-credentials'],
    ['hooks.example.com/in', 'invalid-url'],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, 'invalid-url'],
  ])('%s is refused before any lookup (%s)', (input, reason) => {
    expect(parseWebhookUrl(input)).toEqual({ ok: false, reason })
  })

  it('is checked against every address its host resolves to', async () => {
    const lookup = zone({
      'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
      'rebinding.example.com': ['93.184.215.14', '127.0.0.1'],
      'metadata.example.com': ['169.254.169.254'],
    })
    const allowed = await checkWebhookDestination('https://hooks.example.com/in?x=1', { allowPrivate: false, lookup })
    expect(allowed).toMatchObject({
      ok: true,
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
    })
    expect(allowed.ok && allowed.url.href).toBe('https://hooks.example.com/in?x=1')
    for (const host of ['rebinding.example.com', 'metadata.example.com'])
      expect(await checkWebhookDestination(`https://${host}/in`, { allowPrivate: false, lookup })).toEqual({
        ok: false,
        reason: 'private-address',
      })
    expect(await checkWebhookDestination('https://missing.example.com/', { allowPrivate: false, lookup })).toEqual({
      ok: false,
      reason: 'not-resolved',
    })
  })

  it('refuses address literals and this machine by name, unless private addresses are allowed', async () => {
    for (const input of [
      'http://127.0.0.1:8080/hook',
      'http://[::1]/hook',
      'http://[::ffff:10.0.0.1]/',
      'http://localhost:3000/',
    ])
      expect(await checkWebhookDestination(input, { allowPrivate: false }), input).toEqual({
        ok: false,
        reason: 'private-address',
      })
    const local = await checkWebhookDestination('http://127.0.0.1:8080/hook', { allowPrivate: true })
    expect(local).toMatchObject({ ok: true, addresses: [{ address: '127.0.0.1', family: 4 }] })
    const literal = await checkWebhookDestination('https://[2606:4700:4700::1111]/in', { allowPrivate: false })
    expect(literal).toMatchObject({ ok: true, addresses: [{ address: '2606:4700:4700::1111', family: 6 }] })
  })
})
