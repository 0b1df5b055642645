import { lookup as systemLookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Where an outgoing webhook may be delivered: an http(s) URL whose host resolves only to public addresses. Checked
 * when an endpoint is saved and again before every delivery (a name can be pointed elsewhere after it was saved), and
 * the delivery connects to an address this check returned, so the name is not looked up a second time in between.
 */

/** Why a URL is refused, for a translated message at save time and a delivery log entry later. */
export type RefusedDestination = 'invalid-url' | 'not-http' | 'has-credentials' | 'not-resolved' | 'private-address'

export type DestinationCheck =
  | { ok: true; url: URL; addresses: { address: string; family: 4 | 6 }[] }
  | { ok: false; reason: RefusedDestination }

/** Looks a host name up to every address it has (the system resolver by default, as a delivery would use). */
export type HostLookup = (hostname: string) => Promise<{ address: string; family: number }[]>

const lookUpEveryAddress: HostLookup = (hostname) => systemLookup(hostname, { all: true, verbatim: true })

/** How long a name may take to resolve: one nobody answers for is refused, not waited on. */
const lookupDeadlineMs = 3000

async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('lookup timed out')), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** Longest accepted URL: an endpoint is an address, not a place to carry data. */
export const maxWebhookUrlLength = 2048

// Addresses no customer's receiver has: this machine, private networks, link-local (with the cloud metadata service
// at 169.254.169.254 and fd00:ec2::254), carrier-grade NAT, documentation and benchmarking ranges, multicast and the
// reserved rest (IANA's special-purpose address registries).
const notPublic = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  notPublic.addSubnet(network, prefix, 'ipv6')

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address)
  if (!groups) return undefined
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number]
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) return v4(g6, g7)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7)
  if (g0 === 0x2002) return v4(g1, g2)
  return undefined
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function expandIpv6(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined
  let text = address.split('%')[0] ?? ''
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const part = (side: string) => (side ? side.split(':').map((group) => Number.parseInt(group, 16)) : [])
  const first = part(head)
  const last = tail === undefined ? [] : part(tail)
  return [...first, ...Array(8 - first.length - last.length).fill(0), ...last]
}

/** True when a connection to this IP address would reach the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return !notPublic.check(address, 'ipv4')
  if (family !== 6) return false
  const carried = embeddedIpv4(address)
  if (carried !== undefined) return isPublicAddress(carried)
  return !notPublic.check(address.split('%')[0] ?? '', 'ipv6')
}

/** The URL as an endpoint, before any lookup: http(s), a host, no user name or password. */
export function parseWebhookUrl(input: string): { ok: true; url: URL } | { ok: false; reason: RefusedDestination } {
  if (input.length > maxWebhookUrlLength || !URL.canParse(input)) return { ok: false, reason: 'invalid-url' }
  const url = new URL(input)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'not-http' }
  if (url.username || url.password) return { ok: false, reason: 'has-credentials' }
  if (!url.hostname) return { ok: false, reason: 'invalid-url' }
  return { ok: true, url }
}

/**
 * Checks a webhook URL and the addresses its host resolves to. Every address must be public (a name with one private
 * address among public ones is refused: the resolver may hand out either). `allowPrivate` is
 * WEBHOOKS_ALLOW_PRIVATE, for local development and the tests.
 */
export async function checkWebhookDestination(
  input: string,
  options: { allowPrivate: boolean; lookup?: HostLookup },
): Promise<DestinationCheck> {
  const parsed = parseWebhookUrl(input)
  if (!parsed.ok) return parsed
  const { url } = parsed
  // URL keeps an IPv6 literal in brackets.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  let found: { address: string; family: number }[]
  if (isIP(host)) found = [{ address: host, family: isIP(host) }]
  else {
    try {
      found = await withinDeadline((options.lookup ?? lookUpEveryAddress)(host), lookupDeadlineMs)
    } catch {
      return { ok: false, reason: 'not-resolved' }
    }
  }
  if (found.length === 0) return { ok: false, reason: 'not-resolved' }
  if (!options.allowPrivate && !found.every(({ address }) => isPublicAddress(address)))
    return { ok: false, reason: 'private-address' }
  return {
    ok: true,
    url,
    addresses: found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })),
  }
}

/**
 * A `lookup` for http(s).request that answers from the addresses a check returned, so nothing is looked up between
 * the check and the connection (a name pointed elsewhere meanwhile cannot reach an internal address).
 */
export function pinnedLookup(checked: { address: string; family: 4 | 6 }[]): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === 6 || lookupOptions.family === 4 ? lookupOptions.family : undefined
    const usable = checked.filter((address) => family === undefined || address.family === family)
    const first = usable[0]
    if (!first)
      return callback(Object.assign(new Error('No checked address of that family'), { code: 'ENOTFOUND' }), '', 4)
    if (lookupOptions.all) return (callback as unknown as (error: null, all: typeof usable) => void)(null, usable)
    return callback(null, first.address, first.family)
  }
}
