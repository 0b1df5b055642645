import { Resolver } from 'node:dns/promises'
import { getEnv } from '#/server/env'
import { domainRecordName, domainRecordValue } from '../sso-rules'

export type DomainCheck = 'verified' | 'record-missing' | 'record-different' | 'lookup-failed'

/**
 * Looks for TXT `_hatch-sso.{domain}` = `hatch-sso-verification={token}` through SSO_DNS_SERVERS (or the system's
 * resolvers). A record with other values beside ours counts: providers often publish several.
 */
export async function checkDomainRecord(domain: string, token: string): Promise<DomainCheck> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 })
  const servers = getEnv().SSO_DNS_SERVERS
  if (servers.length > 0) resolver.setServers(servers)
  let records: string[][]
  try {
    records = await resolver.resolveTxt(domainRecordName(domain))
  } catch (error) {
    const code = (error as { code?: string }).code
    return code === 'ENOTFOUND' || code === 'ENODATA' ? 'record-missing' : 'lookup-failed'
  }
  const expected = domainRecordValue(token)
  // A long TXT value arrives in 255-byte pieces; joined, it is the record as published.
  const values = records.map((chunks) => chunks.join('').trim())
  if (values.includes(expected)) return 'verified'
  return values.some((value) => value.startsWith('hatch-sso-verification=')) ? 'record-different' : 'record-missing'
}
