import { desc, lt } from 'drizzle-orm'
import { isDatabaseTimeZone, runAnalyticsRollup } from '#/features/analytics/server'
import type { SiteSettingsInput } from '#/lib/site-settings'
import { anySignInMethodLeft, enabledAuthMethods, isSignInMethodEnabled } from '#/server/auth/methods'
import { siteSettingChanges, siteSettings } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { log } from '#/server/log'
import { forgetSiteSettings, readSiteSettings } from '#/server/settings'
import { announceSettingsChange } from '#/server/settings-sync'
import { AppError, adminProcedure, createRouter } from '#/server/trpc/init'
import { configurationChangesInput, updateConfigurationInput } from '../schemas'

type SettingKey = keyof SiteSettingsInput

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
    const { confirmSignInMethodOff, ...next } = input
    const env = getEnv()
    const current = await readSiteSettings(ctx.db)
    const changed = (Object.keys(next) as SettingKey[]).filter((key) => next[key] !== current[key])
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
      // The browser's and Node's zone lists can be newer than the database's; the rollup cuts days in the database.
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
      isSignInMethodEnabled(method, enabledAuthMethods(current, env)) &&
      !isSignInMethodEnabled(method, after)
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
      await tx.insert(siteSettingChanges).values(
        changed.map((setting) => ({
          userId: ctx.user.id,
          userName: ctx.user.name,
          setting,
          oldValue: JSON.stringify(current[setting]),
          newValue: JSON.stringify(next[setting]),
          createdAt: now,
        })),
      )
    })
    forgetSiteSettings(ctx.db)
    await announceSettingsChange()
    if (changed.includes('analyticsTimeZone')) {
      // The Dashboard's days move with the zone: cut the kept days again now rather than at the job's next turn. The
      // settings are saved either way; if this run fails or another server holds the job, the next turn re-cuts them.
      await runAnalyticsRollup(ctx.db, { timeZone: next.analyticsTimeZone, force: true }).catch((error: unknown) =>
        log().error({ err: error }, 're-cutting analytics days in the new time zone failed; the job will retry'),
      )
    }
    return { settings: await readSiteSettings(ctx.db), changed }
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
