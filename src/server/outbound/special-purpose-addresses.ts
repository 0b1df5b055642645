import { isIP } from 'node:net'

/**
 * IANA's special-purpose address registries (iana-ipv4-special-registry and iana-ipv6-special-registry, as updated in
 * 2025), whole, with each block's "Globally Reachable" flag. A server that calls a URL someone typed must reach only
 * the public internet, so everything the registries do not call globally reachable is refused. Blocks nest: the
 * longest matching prefix decides (192.0.0.9/32 is reachable inside 192.0.0.0/24, which is not). "N/A" (Teredo, 6to4)
 * counts as not reachable; 6to4 addresses are judged by the IPv4 address they carry before the table is read.
 */
export interface SpecialPurposeBlock {
  block: string
  name: string
  globallyReachable: boolean
}

export const ipv4SpecialPurposeBlocks: readonly SpecialPurposeBlock[] = [
  { block: '0.0.0.0/8', name: 'This network', globallyReachable: false },
  { block: '0.0.0.0/32', name: 'This host on this network', globallyReachable: false },
  { block: '10.0.0.0/8', name: 'Private-Use', globallyReachable: false },
  { block: '100.64.0.0/10', name: 'Shared Address Space', globallyReachable: false },
  { block: '127.0.0.0/8', name: 'Loopback', globallyReachable: false },
  { block: '169.254.0.0/16', name: 'Link Local', globallyReachable: false },
  { block: '172.16.0.0/12', name: 'Private-Use', globallyReachable: false },
  { block: '192.0.0.0/24', name: 'IETF Protocol Assignments', globallyReachable: false },
  { block: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix', globallyReachable: false },
  { block: '192.0.0.8/32', name: 'IPv4 dummy address', globallyReachable: false },
  { block: '192.0.0.9/32', name: 'Port Control Protocol Anycast', globallyReachable: true },
  { block: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast', globallyReachable: true },
  { block: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', globallyReachable: false },
  { block: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', globallyReachable: false },
  { block: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', globallyReachable: false },
  { block: '192.31.196.0/24', name: 'AS112-v4', globallyReachable: true },
  { block: '192.52.193.0/24', name: 'AMT', globallyReachable: true },
  { block: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', globallyReachable: false },
  { block: '192.168.0.0/16', name: 'Private-Use', globallyReachable: false },
  { block: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', globallyReachable: true },
  { block: '198.18.0.0/15', name: 'Benchmarking', globallyReachable: false },
  { block: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', globallyReachable: false },
  { block: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', globallyReachable: false },
  { block: '240.0.0.0/4', name: 'Reserved', globallyReachable: false },
  { block: '255.255.255.255/32', name: 'Limited Broadcast', globallyReachable: false },
]

export const ipv6SpecialPurposeBlocks: readonly SpecialPurposeBlock[] = [
  { block: '::1/128', name: 'Loopback Address', globallyReachable: false },
  { block: '::/128', name: 'Unspecified Address', globallyReachable: false },
  { block: '::ffff:0:0/96', name: 'IPv4-mapped Address', globallyReachable: false },
  { block: '64:ff9b::/96', name: 'IPv4-IPv6 Translat.', globallyReachable: true },
  { block: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translat.', globallyReachable: false },
  { block: '100::/64', name: 'Discard-Only Address Block', globallyReachable: false },
  { block: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', globallyReachable: false },
  { block: '2001::/23', name: 'IETF Protocol Assignments', globallyReachable: false },
  { block: '2001::/32', name: 'TEREDO', globallyReachable: false },
  { block: '2001:1::1/128', name: 'Port Control Protocol Anycast', globallyReachable: true },
  { block: '2001:1::2/128', name: 'Traversal Using Relays around NAT Anycast', globallyReachable: true },
  { block: '2001:1::3/128', name: 'DNS-SD Service Registration Protocol Anycast', globallyReachable: true },
  { block: '2001:2::/48', name: 'Benchmarking', globallyReachable: false },
  { block: '2001:3::/32', name: 'AMT', globallyReachable: true },
  { block: '2001:4:112::/48', name: 'AS112-v6', globallyReachable: true },
  { block: '2001:10::/28', name: 'Deprecated (previously ORCHID)', globallyReachable: false },
  { block: '2001:20::/28', name: 'ORCHIDv2', globallyReachable: true },
  { block: '2001:30::/28', name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', globallyReachable: true },
  { block: '2001:db8::/32', name: 'Documentation', globallyReachable: false },
  { block: '2002::/16', name: '6to4', globallyReachable: false },
  { block: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', globallyReachable: true },
  { block: '3fff::/20', name: 'Documentation', globallyReachable: false },
  { block: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', globallyReachable: false },
  { block: 'fc00::/7', name: 'Unique-Local', globallyReachable: false },
  { block: 'fe80::/10', name: 'Link-Local Unicast', globallyReachable: false },
]

/** The address as a number (32 bits for IPv4, 128 for IPv6, without a zone), or undefined when it is not one. */
export function addressBits(address: string): { bits: bigint; width: 32 | 128 } | undefined {
  const family = isIP(address)
  if (family === 4) {
    const bits = address.split('.').reduce((sum, octet) => (sum << 8n) | BigInt(Number(octet)), 0n)
    return { bits, width: 32 }
  }
  if (family !== 6) return undefined
  let text = address.split('%')[0] ?? ''
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const groups = (side: string) => (side ? side.split(':').map((group) => BigInt(Number.parseInt(group, 16))) : [])
  const first = groups(head)
  const last = tail === undefined ? [] : groups(tail)
  const all = [...first, ...Array<bigint>(8 - first.length - last.length).fill(0n), ...last]
  return { bits: all.reduce((sum, group) => (sum << 16n) | group, 0n), width: 128 }
}

interface Prefix {
  network: bigint
  length: number
  width: 32 | 128
}

function parsePrefix(block: string): Prefix {
  const [address = '', length = ''] = block.split('/')
  const parsed = addressBits(address)
  if (!parsed) throw new Error(`not an address block: ${block}`)
  return { network: parsed.bits, length: Number(length), width: parsed.width }
}

/** Whether `bits` (of the prefix's width) lies inside the prefix. */
export function insidePrefix(bits: bigint, prefix: Prefix): boolean {
  const shift = BigInt(prefix.width - prefix.length)
  return bits >> shift === prefix.network >> shift
}

/** Each table with its prefixes parsed, longest first, so the first block that matches is the one that decides. */
const byLongestPrefix = (table: readonly SpecialPurposeBlock[]) =>
  table
    .map((entry) => ({ ...entry, prefix: parsePrefix(entry.block) }))
    .sort((left, right) => right.prefix.length - left.prefix.length)
const ipv4Blocks = byLongestPrefix(ipv4SpecialPurposeBlocks)
const ipv6Blocks = byLongestPrefix(ipv6SpecialPurposeBlocks)

/** Multicast is in neither special-purpose registry (IANA keeps it apart), and is never one receiver. */
const ipv4Multicast = parsePrefix('224.0.0.0/4')
/** The only IPv6 space IANA hands out as global unicast; the rest is reserved, local or multicast. */
const ipv6GlobalUnicast = parsePrefix('2000::/3')

/** The special-purpose block an address falls in (the most specific one), if any. */
export function specialPurposeBlockOf(address: string): SpecialPurposeBlock | undefined {
  const parsed = addressBits(address)
  if (!parsed) return undefined
  const blocks = parsed.width === 32 ? ipv4Blocks : ipv6Blocks
  return blocks.find((entry) => insidePrefix(parsed.bits, entry.prefix))
}

/**
 * The IPv4 address an IPv6 address hands the packet to: IPv4-mapped (::ffff:0:0/96), IPv4-translated
 * (::ffff:0:0:0/96), the deprecated IPv4-compatible form (::/96), NAT64's well-known prefix (64:ff9b::/96) and 6to4
 * (2002::/16, the site's IPv4 address in bits 16 to 48).
 */
export function embeddedIpv4(address: string): string | undefined {
  const parsed = addressBits(address)
  if (parsed?.width !== 128) return undefined
  const { bits } = parsed
  const dotted = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => Number((value >> shift) & 0xffn)).join('.')
  const low32 = bits & 0xffff_ffffn
  const high96 = bits >> 32n
  if (high96 === 0xffffn || high96 === 0xffff_0000n || high96 === 0n || high96 === 0x0064_ff9b_0000_0000_0000_0000n)
    return dotted(low32)
  if (bits >> 112n === 0x2002n) return dotted((bits >> 80n) & 0xffff_ffffn)
  return undefined
}

/** True when a connection to this IP address would reach the public internet, by the registries above. */
export function isGloballyReachable(address: string): boolean {
  const parsed = addressBits(address)
  if (!parsed) return false
  if (parsed.width === 128) {
    const carried = embeddedIpv4(address)
    if (carried !== undefined) return isGloballyReachable(carried)
  }
  const special = specialPurposeBlockOf(address)
  if (special) return special.globallyReachable
  if (parsed.width === 32) return !insidePrefix(parsed.bits, ipv4Multicast)
  return insidePrefix(parsed.bits, ipv6GlobalUnicast)
}
