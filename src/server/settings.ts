import { eq } from 'drizzle-orm'
import { type SiteSettings, type SiteSettingsInput, siteSettingsInput } from '#/lib/site-settings'
import type { Database } from './db/client'
import { siteSettings } from './db/schema'

// Several app servers may share one database: with Redis a change is announced at once (settings-sync.ts); without
// it, a write on one server reaches the others within this time.
const cacheTtlMs = 30_000

interface CacheEntry {
  value: Promise<SiteSettings>
  loadedAt: number
}

const cache = new WeakMap<Database, CacheEntry>()

async function loadSiteSettings(db: Database): Promise<SiteSettings> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1))
  if (row) return toSiteSettings(row)
  // The migration inserts the row; recreate it with defaults if an operator deleted it.
  const [created] = await db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing().returning()
  if (created) return toSiteSettings(created)
  return loadSiteSettings(db)
}

function toSiteSettings(row: typeof siteSettings.$inferSelect): SiteSettings {
  return {
    productName: row.productName,
    sourceRepositoryUrl: row.sourceRepositoryUrl,
    defaultTheme: row.defaultTheme,
    docsFooterNavigation: row.docsFooterNavigation,
    docsEditBranch: row.docsEditBranch,
    authEmailPassword: row.authEmailPassword,
    authUsername: row.authUsername,
    authGithub: row.authGithub,
    authGoogle: row.authGoogle,
    authGoogleOneTap: row.authGoogleOneTap,
    authGenericOauth: row.authGenericOauth,
    authMagicLink: row.authMagicLink,
    authEmailOtp: row.authEmailOtp,
    authAnonymous: row.authAnonymous,
    authPasskey: row.authPasskey,
    authSso: row.authSso,
    signUpOpen: row.signUpOpen,
    emailVerificationRequired: row.emailVerificationRequired,
    analyticsEnabled: row.analyticsEnabled,
    analyticsTimeZone: row.analyticsTimeZone,
    updatedAt: row.updatedAt,
  }
}

/** Site settings, read from the database at most once per TTL per process and invalidated on write. */
export function getSiteSettings(db: Database): Promise<SiteSettings> {
  const entry = cache.get(db)
  if (entry && Date.now() - entry.loadedAt < cacheTtlMs) return entry.value
  const value = loadSiteSettings(db)
  cache.set(db, { value, loadedAt: Date.now() })
  // A failed read must not be served from the cache.
  value.catch(() => cache.delete(db))
  return value
}

const forgetters = new Set<(db: Database) => void>()

/**
 * Has `forget` called whenever the settings are forgotten: a cache kept beside them (the domains that require single
 * sign-on) then goes with them, on every server, through the same announcements (settings-sync.ts).
 */
export function onSiteSettingsForgotten(forget: (db: Database) => void): void {
  forgetters.add(forget)
}

/** Drops the cached copy, so the next request reads the database (a change announced by another server). */
export function forgetSiteSettings(db: Database): void {
  cache.delete(db)
  for (const forget of forgetters) forget(db)
}

/** Reads the settings from the database, never from the cache (to compare a change against what is stored). */
export function readSiteSettings(db: Database): Promise<SiteSettings> {
  return loadSiteSettings(db)
}

/** Validates and stores a change; throws a ZodError (nothing written) when the change is invalid. */
export async function updateSiteSettings(db: Database, change: Partial<SiteSettingsInput>): Promise<SiteSettings> {
  const valid = siteSettingsInput.partial().parse(change)
  const values = { ...valid, updatedAt: new Date() }
  // An upsert: the row is recreated with defaults if an operator deleted it.
  const [row] = await db
    .insert(siteSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: siteSettings.id, set: values })
    .returning()
  cache.delete(db)
  if (!row) throw new Error('site_settings upsert returned no row')
  return toSiteSettings(row)
}
