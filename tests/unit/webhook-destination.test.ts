import { BlockList } from 'node:net'
import { describe, expect, it } from 'vitest'
import {
  checkWebhookDestination,
  type HostLookup,
  isPublicAddress,
  parseWebhookUrl,
} from '#/server/outbound/destination'
import { ipv4SpecialPurposeBlocks, ipv6SpecialPurposeBlocks } from '#/server/outbound/special-purpose-addresses'

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
    ['::ffff:0:127.0.0.1', 'loopback inside an IPv4-translated address'],
    ['::127.0.0.1', 'loopback inside an IPv4-compatible address'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['3fff::1', 'documentation (the newer block)'],
    ['5f00::1', 'segment routing'],
    ['2001::1', 'Teredo'],
    ['4000::1', 'reserved by the IETF, outside global unicast'],
    ['fec0::1', 'the old site-local block'],
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

// IANA's special-purpose address registries as published (iana-ipv4-special-registry and iana-ipv6-special-registry,
// 2025): each block and its "Globally Reachable" column, N/A written as false.
const ianaIpv4: Record<string, boolean> = {
  '0.0.0.0/8': false,
  '0.0.0.0/32': false,
  '10.0.0.0/8': false,
  '100.64.0.0/10': false,
  '127.0.0.0/8': false,
  '169.254.0.0/16': false,
  '172.16.0.0/12': false,
  '192.0.0.0/24': false,
  '192.0.0.0/29': false,
  '192.0.0.8/32': false,
  '192.0.0.9/32': true,
  '192.0.0.10/32': true,
  '192.0.0.170/32': false,
  '192.0.0.171/32': false,
  '192.0.2.0/24': false,
  '192.31.196.0/24': true,
  '192.52.193.0/24': true,
  '192.88.99.0/24': false,
  '192.168.0.0/16': false,
  '192.175.48.0/24': true,
  '198.18.0.0/15': false,
  '198.51.100.0/24': false,
  '203.0.113.0/24': false,
  '240.0.0.0/4': false,
  '255.255.255.255/32': false,
}
const ianaIpv6: Record<string, boolean> = {
  '::1/128': false,
  '::/128': false,
  '::ffff:0:0/96': false,
  '64:ff9b::/96': true,
  '64:ff9b:1::/48': false,
  '100::/64': false,
  '100:0:0:1::/64': false,
  '2001::/23': false,
  '2001::/32': false,
  '2001:1::1/128': true,
  '2001:1::2/128': true,
  '2001:1::3/128': true,
  '2001:2::/48': false,
  '2001:3::/32': true,
  '2001:4:112::/48': true,
  '2001:10::/28': false,
  '2001:20::/28': true,
  '2001:30::/28': true,
  '2001:db8::/32': false,
  '2002::/16': false,
  '2620:4f:8000::/48': true,
  '3fff::/20': false,
  '5f00::/16': false,
  'fc00::/7': false,
  'fe80::/10': false,
}

/** Blocks whose IPv6 addresses carry an IPv4 address: they are judged by that address, tested below. */
const carriesIpv4 = new Set(['::ffff:0:0/96', '64:ff9b::/96', '2002::/16'])

const ipv6Bits = (address: string) => {
  const [head = '', tail] = address.split('::')
  const groups = (side: string) => (side ? side.split(':') : [])
  const all = [
    ...groups(head),
    ...Array(8 - groups(head).length - groups(tail ?? '').length).fill('0'),
    ...groups(tail ?? ''),
  ]
  return all.reduce((sum, group) => (sum << 16n) | BigInt(Number.parseInt(group, 16)), 0n)
}
const ipv4Bits = (address: string) => address.split('.').reduce((sum, octet) => (sum << 8n) | BigInt(octet), 0n)
const formatBits = (bits: bigint, family: 'ipv4' | 'ipv6') =>
  family === 'ipv4'
    ? [24n, 16n, 8n, 0n].map((shift) => String((bits >> shift) & 0xffn)).join('.')
    : [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((bits >> shift) & 0xffffn).toString(16)).join(':')

/** The first, second and last address of a block. */
function samplesOf(block: string, family: 'ipv4' | 'ipv6'): string[] {
  const [network = '', length = ''] = block.split('/')
  const width = family === 'ipv4' ? 32n : 128n
  const hostBits = width - BigInt(length)
  const first = ((family === 'ipv4' ? ipv4Bits(network) : ipv6Bits(network)) >> hostBits) << hostBits
  const last = first | ((1n << hostBits) - 1n)
  return [...new Set([first, first + (last > first ? 1n : 0n), last])].map((bits) => formatBits(bits, family))
}

/** What the registry says of one address: the flag of the most specific block holding it (Node's BlockList decides). */
function registrySays(
  address: string,
  family: 'ipv4' | 'ipv6',
  registry: Record<string, boolean>,
): boolean | undefined {
  let best: { length: number; reachable: boolean } | undefined
  for (const [block, reachable] of Object.entries(registry)) {
    const [network = '', length = ''] = block.split('/')
    const list = new BlockList()
    list.addSubnet(network, Number(length), family)
    if (list.check(address, family) && (!best || Number(length) > best.length))
      best = { length: Number(length), reachable }
  }
  return best?.reachable
}

describe("IANA's special-purpose address registries, as a whole", () => {
  it('are encoded block for block, each with its Globally Reachable flag', () => {
    const encoded = (table: typeof ipv4SpecialPurposeBlocks) =>
      Object.fromEntries(table.map((entry) => [entry.block, entry.globallyReachable]))
    expect(encoded(ipv4SpecialPurposeBlocks)).toEqual(ianaIpv4)
    expect(encoded(ipv6SpecialPurposeBlocks)).toEqual(ianaIpv6)
  })

  it.each(Object.keys(ianaIpv4))('IPv4 %s: its addresses are refused unless globally reachable', (block) => {
    for (const address of samplesOf(block, 'ipv4'))
      expect(isPublicAddress(address), address).toBe(registrySays(address, 'ipv4', ianaIpv4))
  })

  it.each(Object.keys(ianaIpv6).filter((block) => !carriesIpv4.has(block)))(
    'IPv6 %s: its addresses are refused unless globally reachable',
    (block) => {
      for (const address of samplesOf(block, 'ipv6'))
        expect(isPublicAddress(address), address).toBe(registrySays(address, 'ipv6', ianaIpv6))
    },
  )

  it.each(Object.keys(ianaIpv4))(
    'IPv4 %s carried in IPv6 (mapped, translated, compatible, NAT64, 6to4) is judged as the IPv4 address',
    (block) => {
      for (const address of samplesOf(block, 'ipv4')) {
        const expected = registrySays(address, 'ipv4', ianaIpv4)
        const bits = ipv4Bits(address)
        const sixToFour = `2002:${(bits >> 16n).toString(16)}:${(bits & 0xffffn).toString(16)}::1`
        for (const carried of [
          `::ffff:${address}`,
          `::ffff:0:${address}`,
          `::${address}`,
          `64:ff9b::${address}`,
          sixToFour,
        ])
          expect(isPublicAddress(carried), carried).toBe(expected)
      }
    },
  )

  it('lets through the public addresses those forms carry, and nothing outside IPv6 global unicast', () => {
    for (const carried of ['::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1'])
      expect(isPublicAddress(carried), carried).toBe(true)
    for (const outside of ['1000::1', '4000::1', 'e000::1', 'fe00::1', 'ff0e::1', '224.0.0.1', '239.255.255.255'])
      expect(isPublicAddress(outside), outside).toBe(false)
    expect(isPublicAddress('2a01:4f8::1')).toBe(true)
  })
})
