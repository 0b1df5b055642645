import { eq, sql } from 'drizzle-orm'
import { appSettings } from '#/app-settings.gen'
import type { AppSettingsDefinition } from '#/lib/app-settings'
import {
  type AppSettings,
  defaultAppSettings,
  type SiteSettings,
  type SiteSettingsInput,
  siteSettingsInput,
} from '#/lib/site-settings'
import type { Database } from './db/client'
import { appSettingsTable, siteSettings } from './db/schema'

// Several app servers may share one database: with Redis a change is announced at once (settings-sync.ts); without
// it, a write on one server reaches the others within this time.
const cacheTtlMs = 30_000

interface CacheEntry {
  value: Promise<SiteSettings>
  loadedAt: number
  /** The value once read, for the kept pages' fast lane, which answers without waiting on anything. */
  settled?: SiteSettings
}

const cache = new WeakMap<Database, CacheEntry>()

async function loadSiteSettings(db: Database): Promise<SiteSettings> {
  const [[row], apps] = await Promise.all([
    db.select().from(siteSettings).where(eq(siteSettings.id, 1)),
    loadAppSettings(db),
  ])
  if (row) return toSiteSettings(row, apps)
  // The migration inserts the row; recreate it with defaults if an operator deleted it.
  const [created] = await db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing().returning()
  if (created) return toSiteSettings(created, apps)
  return loadSiteSettings(db)
}

const definitions = appSettings as Readonly<Record<string, AppSettingsDefinition>>

/** An installed app's setting by its app and key (own keys only: a stored `constructor` is no setting). */
function fieldOf(app: string, key: string) {
  const definition = Object.hasOwn(definitions, app) ? definitions[app] : undefined
  return definition && Object.hasOwn(definition.fields, key) ? definition.fields[key] : undefined
}

/** The installed apps' stored settings over their defaults; a value its schema no longer takes reads as the default. */
async function loadAppSettings(db: Database): Promise<AppSettings> {
  const values = defaultAppSettings() as Record<string, Record<string, unknown>>
  if (Object.keys(definitions).length === 0) return values as AppSettings
  const rows = await db.select().from(appSettingsTable)
  for (const row of rows) {
    const field = fieldOf(row.app, row.key)
    const parsed = field?.schema.safeParse(row.value)
    const own = values[row.app]
    if (parsed?.success && own) own[row.key] = parsed.data
  }
  return values as AppSettings
}

/** The changes of app settings in `change` that its apps' schemas take (a ZodError for the first that one refuses). */
function appSettingRows(change: Partial<Record<string, Record<string, unknown>>>, now: Date) {
  return Object.entries(change).flatMap(([app, values]) =>
    Object.entries(values ?? {}).map(([key, value]) => {
      const field = fieldOf(app, key)
      if (!field) throw new Error(`no setting ${app}.${key} is installed`)
      return { app, key, value: field.schema.parse(value), updatedAt: now }
    }),
  )
}

/** Stores changed app settings (in the caller's transaction, when it has one). */
export async function writeAppSettings(
  db: Pick<Database, 'insert'>,
  change: Partial<Record<string, Record<string, unknown>>>,
  now = new Date(),
): Promise<void> {
  const rows = appSettingRows(change, now)
  if (rows.length === 0) return
  await db
    .insert(appSettingsTable)
    .values(rows)
    .onConflictDoUpdate({
      target: [appSettingsTable.app, appSettingsTable.key],
      set: { value: sql`excluded.value`, updatedAt: now },
    })
}

function toSiteSettings(row: typeof siteSettings.$inferSelect, apps: AppSettings): SiteSettings {
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
    signUpOpen: row.signUpOpen,
    emailVerificationRequired: row.emailVerificationRequired,
    analyticsTimeZone: row.analyticsTimeZone,
    apps,
    updatedAt: row.updatedAt,
  }
}

/** Site settings, read from the database at most once per TTL per process and invalidated on write. */
export function getSiteSettings(db: Database): Promise<SiteSettings> {
  const entry = cache.get(db)
  if (entry && Date.now() - entry.loadedAt < cacheTtlMs) return entry.value
  const value = loadSiteSettings(db)
  const loaded: CacheEntry = { value, loadedAt: Date.now() }
  cache.set(db, loaded)
  value.then(
    (settings) => {
      loaded.settled = settings
    },
    // A failed read must not be served from the cache.
    () => cache.delete(db),
  )
  return value
}

/**
 * The settings as getSiteSettings would give them now, when that needs no read: read, still fresh, and not forgotten
 * since. Otherwise undefined, and the caller takes the way that reads them.
 */
export function freshSiteSettings(db: Database): SiteSettings | undefined {
  const entry = cache.get(db)
  return entry && Date.now() - entry.loadedAt < cacheTtlMs ? entry.settled : undefined
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

/** A change of settings: any of the core's, and any of an app's (`apps: { analytics: { enabled: false } }`). */
export type SiteSettingsChange = Partial<Omit<SiteSettingsInput, 'apps'>> & {
  apps?: { [App in keyof AppSettings]?: Partial<AppSettings[App]> }
}

/** Validates and stores a change; throws a ZodError (nothing written) when the change is invalid. */
export async function updateSiteSettings(db: Database, change: SiteSettingsChange): Promise<SiteSettings> {
  const { apps: appChange, ...coreChange } = change
  const valid = siteSettingsInput.omit({ apps: true }).partial().parse(coreChange)
  const now = new Date()
  appSettingRows(appChange ?? {}, now)
  const values = { ...valid, updatedAt: now }
  await db.transaction(async (tx) => {
    // An upsert: the row is recreated with defaults if an operator deleted it.
    await tx
      .insert(siteSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: siteSettings.id, set: values })
    await writeAppSettings(tx, appChange ?? {}, now)
  })
  cache.delete(db)
  return loadSiteSettings(db)
}
