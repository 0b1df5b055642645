import { and, eq } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { ssoProviders } from '#/server/db/schema'
import { forgetSiteSettings, onSiteSettingsForgotten } from '#/server/settings'
import { announceSettingsChange } from '#/server/settings-sync'

// Kept like the site settings: read at most once in this time per process, and forgotten at once, on every server,
// when a connection changes (the settings' announcements carry the news).
const cacheTtlMs = 30_000

interface CacheEntry {
  value: Promise<ReadonlySet<string>>
  loadedAt: number
}

const cache = new WeakMap<Database, CacheEntry>()

onSiteSettingsForgotten((db) => cache.delete(db))

async function loadDomains(db: Database): Promise<ReadonlySet<string>> {
  const rows = await db
    .select({ domain: ssoProviders.domain })
    .from(ssoProviders)
    .where(and(eq(ssoProviders.domainVerified, true), eq(ssoProviders.requireSso, true)))
  return new Set(rows.map((row) => row.domain))
}

/**
 * The verified domains whose people must sign in through single sign-on. Most sites have none, and then nothing that
 * asks "must this person use SSO?" needs the database. A domain in the set is a hint, not the answer: the set may be
 * a moment behind a removal, so a hit is checked against the connection itself.
 */
export function domainsRequiringSso(db: Database): Promise<ReadonlySet<string>> {
  const entry = cache.get(db)
  if (entry && Date.now() - entry.loadedAt < cacheTtlMs) return entry.value
  const value = loadDomains(db)
  cache.set(db, { value, loadedAt: Date.now() })
  value.catch(() => cache.delete(db))
  return value
}

/** A connection changed (required, no longer required, removed): every server reads the domains again. */
export async function ssoConnectionsChanged(db: Database): Promise<void> {
  forgetSiteSettings(db)
  await announceSettingsChange()
}
