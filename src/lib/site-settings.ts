import { appSettings } from '#/app-settings.gen'
import type { AppSettingsDefinition, AppSettingValues } from '#/lib/app-settings'
import { themeChoices } from '#/lib/theme'
import { z } from '#/lib/zod'

/** The installed apps' settings (src/lib/app-settings.ts), by app and key. */
export type AppSettings = { -readonly [App in keyof typeof appSettings]: AppSettingValues<(typeof appSettings)[App]> }

/** Typed for iterating: with no app's settings installed the generated object is empty. */
const definitions: Readonly<Record<string, AppSettingsDefinition>> = appSettings

/** Each installed app's settings, checked by their own schemas (an app's object, then its keys). */
export const appSettingsInput = z.object(
  Object.fromEntries(
    Object.entries(definitions).map(([app, definition]) => [
      app,
      z.object(Object.fromEntries(Object.entries(definition.fields).map(([key, field]) => [key, field.schema]))),
    ]),
  ),
) as unknown as z.ZodType<AppSettings, AppSettings>

/** A change of the apps' settings: an app, or a key, left out stays as it is. */
export type AppSettingsChange = { [App in keyof AppSettings]?: Partial<AppSettings[App]> }

/** What a client may send of the apps' settings (the Configuration form sends them all; a script, what it changes). */
export const appSettingsChangeInput = z.object(
  Object.fromEntries(
    Object.entries(definitions).map(([app, definition]) => [
      app,
      z
        .object(Object.fromEntries(Object.entries(definition.fields).map(([key, field]) => [key, field.schema])))
        .partial()
        .optional(),
    ]),
  ),
) as unknown as z.ZodType<AppSettingsChange, AppSettingsChange>

/** The apps' settings once `change` is applied to `current`. */
export function withAppSettingsChange(current: AppSettings, change: AppSettingsChange): AppSettings {
  const changes = change as Record<string, Record<string, unknown> | undefined>
  return Object.fromEntries(
    Object.entries(current as Record<string, Record<string, unknown>>).map(([app, values]) => [
      app,
      { ...values, ...changes[app] },
    ]),
  ) as AppSettings
}

/** Each installed app's settings as they are until an admin changes them. */
export function defaultAppSettings(): AppSettings {
  return Object.fromEntries(
    Object.entries(definitions).map(([app, definition]) => [
      app,
      Object.fromEntries(Object.entries(definition.fields).map(([key, field]) => [key, field.default])),
    ]),
  ) as AppSettings
}

/** What an app admin may set in Configuration; the procedure and the form share it (messages are translation keys). */
export const siteSettingsInput = z.object({
  productName: z.string().trim().min(1, 'validation_required').max(60, 'validation_product_name_too_long'),
  sourceRepositoryUrl: z
    .url({ protocol: /^https?$/, error: 'validation_url_invalid' })
    .max(2000, 'validation_url_invalid'),
  defaultTheme: z.enum(themeChoices),
  docsFooterNavigation: z.boolean(),
  authEmailPassword: z.boolean(),
  authUsername: z.boolean(),
  authGithub: z.boolean(),
  authGoogle: z.boolean(),
  authGoogleOneTap: z.boolean(),
  authGenericOauth: z.boolean(),
  authMagicLink: z.boolean(),
  authEmailOtp: z.boolean(),
  authAnonymous: z.boolean(),
  authPasskey: z.boolean(),
  signUpOpen: z.boolean(),
  emailVerificationRequired: z.boolean(),
  analyticsTimeZone: z.string().trim().max(64).refine(isTimeZone, 'validation_time_zone_invalid'),
  docsEditBranch: z
    .string()
    .trim()
    .regex(/^\w[\w./-]{0,99}$/, 'validation_branch_invalid')
    .refine((branch) => !branch.includes('..'), 'validation_branch_invalid'),
  apps: appSettingsInput,
})

/** An IANA time zone name this runtime knows (the database knows the same names). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][\w+\-/]*$/.test(name)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

export type SiteSettingsInput = z.infer<typeof siteSettingsInput>
export type SiteSettings = SiteSettingsInput & { updatedAt: Date }
