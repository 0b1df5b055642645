import type { z } from '#/lib/zod'

/** One setting an app adds to Configuration: a switch (a boolean) or a line of text (a string). */
export interface AppSettingField<Value extends boolean | string = boolean | string> {
  schema: z.ZodType<Value>
  /** What it is until an admin changes it (and again when what is stored no longer passes the schema). */
  default: Value
  /** Its name in the form and in the history of changes. */
  label: () => string
  hint?: () => string
  /**
   * When the switch turns a sign-in method on and off: its name (as sessions record it), the Better Auth endpoints
   * refused while it is off, and those that make a session with it. Configuration then asks before an admin switches
   * off the method they signed in with, as for the core's methods.
   */
  signInMethod?: { id: string; paths: readonly string[]; sessionPaths: readonly string[] }
}

/**
 * What an app lets an admin change at run time (docs/decisions/042), declared in the app's
 * `src/features/<app>/settings.ts` and read through `src/app-settings.gen.ts`: Configuration draws its section with the
 * core's settings, in the same form, and records each change as `<app>.<key>`. Stored in the core's `app_settings`
 * table; read with the site settings (`getSiteSettings(db).apps.<app>`), so the cache and its announcements to other
 * servers cover them. Not for secrets: every page may read them (those go in the app's environment variables).
 */
export interface AppSettingsDefinition {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** The title of its section in Configuration. */
  title: () => string
  description?: () => string
  fields: Readonly<Record<string, AppSettingField>>
}

export function defineAppSettings<const Definition extends AppSettingsDefinition>(definition: Definition): Definition {
  return definition
}

/** An app's settings' values, by key. */
export type AppSettingValues<Definition extends AppSettingsDefinition> = {
  -readonly [Key in keyof Definition['fields']]: z.infer<Definition['fields'][Key]['schema']>
}

/** A change of setting, as the history of changes records it: `<app>.<key>` for an app's. */
export const appSettingName = (app: string, key: string) => `${app}.${key}`
