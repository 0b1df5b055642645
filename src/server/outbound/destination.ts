import { lookup as systemLookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'
import { isGloballyReachable } from './special-purpose-addresses'

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

/**
 * True when a connection to this IP address would reach the public internet: not this machine, a private network,
 * link-local (with the cloud metadata service at 169.254.169.254 and fd00:ec2::254), carrier-grade NAT,
 * documentation or benchmarking ranges, multicast, nor anything else IANA's special-purpose registries do not call
 * globally reachable; an IPv6 address carrying an IPv4 one is judged as that IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  return isGloballyReachable(address)
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
