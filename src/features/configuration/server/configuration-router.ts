import { desc, lt } from 'drizzle-orm'
import { appSettingName } from '#/lib/app-settings'
import { type AppSettings, type SiteSettingsInput, withAppSettingsChange } from '#/lib/site-settings'
import { serverApps } from '#/server/apps.gen'
import { anySignInMethodLeft, enabledAuthMethods, isSignInMethodEnabled } from '#/server/auth/methods'
import { siteSettingChanges, siteSettings } from '#/server/db/schema'
import { isDatabaseTimeZone } from '#/server/db/time-zones'
import { getEnv } from '#/server/env'
import { log } from '#/server/log'
import { forgetSiteSettings, readSiteSettings, writeAppSettings } from '#/server/settings'
import { announceSettingsChange } from '#/server/settings-sync'
import { AppError, adminProcedure, createRouter } from '#/server/trpc/init'
import { configurationChangesInput, updateConfigurationInput } from '../schemas'

type SettingKey = keyof Omit<SiteSettingsInput, 'apps'>

interface SettingChange {
  setting: string
  oldValue: unknown
  newValue: unknown
}

/** The app settings that differ, by the name the history records (`<app>.<key>`), and what to store. */
function appSettingChanges(current: AppSettings, next: AppSettings) {
  const changes: SettingChange[] = []
  const stored: Record<string, Record<string, unknown>> = {}
  for (const [app, values] of Object.entries(next) as [string, Record<string, unknown>][]) {
    const before = (current as Record<string, Record<string, unknown>>)[app] ?? {}
    for (const [key, value] of Object.entries(values)) {
      if (Object.is(before[key], value)) continue
      changes.push({ setting: appSettingName(app, key), oldValue: before[key], newValue: value })
      stored[app] = { ...stored[app], [key]: value }
    }
  }
  return { changes, stored }
}

export const configurationRouter = createRouter({
  /** The stored settings, which sign-in providers the environment configures, and how this session signed in. */
  get: adminProcedure.query(async ({ ctx }) => {
    const env = getEnv()
    return {
      settings: await readSiteSettings(ctx.db),
      configured: {
        github: Boolean(env.GITHUB_CLIENT_ID),
        google: Boolean(env.GOOGLE_CLIENT_ID),
        oauthProviders: env.OAUTH_PROVIDERS.map(({ id, name }) => ({ id, name })),
      },
      signInMethod: (ctx.session as { signInMethod?: string | null }).signInMethod ?? null,
    }
  }),

  /**
   * Stores what changed and records each change (who, when, old → new). Refuses to leave no way to sign in, and asks
   * for confirmation before switching off the method this admin signed in with. Every server sees the change on
   * its next request (at once with Redis).
   */
  update: adminProcedure.input(updateConfigurationInput).mutation(async ({ ctx, input }) => {
    const { confirmSignInMethodOff, apps: appsChange, ...next } = input
    const env = getEnv()
    const current = await readSiteSettings(ctx.db)
    const apps = withAppSettingsChange(current.apps, appsChange)
    const changedCore = (Object.keys(next) as SettingKey[]).filter((key) => next[key] !== current[key])
    const appChanges = appSettingChanges(current.apps, apps)
    const changes: SettingChange[] = [
      ...changedCore.map((setting) => ({ setting, oldValue: current[setting], newValue: next[setting] })),
      ...appChanges.changes,
    ]
    const changed = changes.map((change) => change.setting)
    if (changed.length === 0) return { settings: current, changed }

    const after = enabledAuthMethods({ ...current, ...next }, env)
    if (!anySignInMethodLeft(after)) {
      throw new AppError({
        code: 'BAD_REQUEST',
        appCode: 'LAST_SIGN_IN_METHOD',
        message: 'At least one sign-in method must stay on',
      })
    }
    if (changed.includes('analyticsTimeZone') && !(await isDatabaseTimeZone(ctx.db, next.analyticsTimeZone))) {
      // The browser's and Node's zone lists can be newer than the database's; the Dashboard cuts days in the database.
      throw new AppError({
        code: 'BAD_REQUEST',
        appCode: 'TIME_ZONE_UNKNOWN',
        message: 'The database does not know this time zone',
      })
    }
    const method = (ctx.session as { signInMethod?: string | null }).signInMethod
    if (
      method &&
      !confirmSignInMethodOff &&
      isSignInMethodEnabled(method, enabledAuthMethods(current, env), current.apps) &&
      !isSignInMethodEnabled(method, after, apps)
    ) {
      throw new AppError({
        code: 'BAD_REQUEST',
        appCode: 'CONFIRM_SIGN_IN_METHOD_OFF',
        message: 'This switches off the sign-in method you are signed in with',
        params: { method },
      })
    }

    const now = new Date()
    await ctx.db.transaction(async (tx) => {
      await tx
        .insert(siteSettings)
        .values({ id: 1, ...next, updatedAt: now })
        .onConflictDoUpdate({ target: siteSettings.id, set: { ...next, updatedAt: now } })
      await writeAppSettings(tx, appChanges.stored, now)
      await tx.insert(siteSettingChanges).values(
        changes.map((change) => ({
          userId: ctx.user.id,
          userName: ctx.user.name,
          setting: change.setting,
          oldValue: JSON.stringify(change.oldValue),
          newValue: JSON.stringify(change.newValue),
          createdAt: now,
        })),
      )
    })
    forgetSiteSettings(ctx.db)
    await announceSettingsChange()
    const settings = await readSiteSettings(ctx.db)
    // The apps that act on a change (analytics cuts its kept days again in a new time zone) do it now; the settings
    // are saved either way, and a failure is the app's to retry.
    for (const app of serverApps) {
      try {
        await app.settingsChanged?.(ctx.db, { changed, settings })
      } catch (error) {
        log().error({ err: error, app: app.name }, 'an app failed to act on a settings change')
      }
    }
    return { settings, changed }
  }),

  /** The record of changes, newest first. */
  changes: adminProcedure.input(configurationChangesInput).query(async ({ ctx, input }) => {
    const rows = await ctx.db
      .select()
      .from(siteSettingChanges)
      .where(input.cursor === undefined ? undefined : lt(siteSettingChanges.id, input.cursor))
      .orderBy(desc(siteSettingChanges.id))
      .limit(input.limit + 1)
    const items = rows.slice(0, input.limit).map((row) => ({
      id: row.id,
      userName: row.userName,
      setting: row.setting,
      oldValue: JSON.parse(row.oldValue) as unknown,
      newValue: JSON.parse(row.newValue) as unknown,
      createdAt: row.createdAt,
    }))
    return { items, nextCursor: rows.length > input.limit ? items.at(-1)?.id : undefined }
  }),
})
