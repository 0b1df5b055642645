import { appSettings } from '#/app-settings.gen'
import type { AppSettingsDefinition } from '#/lib/app-settings'
import type { SiteSettingsInput } from '#/lib/site-settings'
import { m } from '#/paraglide/messages'

type CoreSettingKey = keyof Omit<SiteSettingsInput, 'apps'>

/** Each of the core's settings' names, as the form and the change history show it. */
export const settingLabels: Record<CoreSettingKey, () => string> = {
  productName: m.config_product_name,
  sourceRepositoryUrl: m.config_source_repository,
  defaultTheme: m.config_default_theme,
  docsFooterNavigation: m.config_docs_footer,
  docsEditBranch: m.config_docs_edit_branch,
  authEmailPassword: m.config_auth_email_password,
  authUsername: m.config_auth_username,
  authGithub: m.config_auth_github,
  authGoogle: m.config_auth_google,
  authGoogleOneTap: m.config_auth_google_one_tap,
  authGenericOauth: m.config_auth_generic_oauth,
  authMagicLink: m.config_auth_magic_link,
  authEmailOtp: m.config_auth_email_otp,
  authAnonymous: m.config_auth_anonymous,
  authPasskey: m.config_auth_passkey,
  signUpOpen: m.config_sign_up_open,
  emailVerificationRequired: m.config_email_verification_required,
  analyticsTimeZone: m.config_analytics_time_zone,
}

const appDefinitions = appSettings as Readonly<Record<string, AppSettingsDefinition>>

/** A setting's name as the change history records it: the core's key, or an app's `<app>.<key>` (its own words). */
export function settingLabelOf(setting: string): string {
  if (Object.hasOwn(settingLabels, setting)) return settingLabels[setting as CoreSettingKey]()
  const [app = '', key = ''] = setting.split('.')
  const field = Object.hasOwn(appDefinitions, app) ? appDefinitions[app]?.fields[key] : undefined
  // A removed app's changes keep their record, under the name they were stored with.
  return field && Object.hasOwn(appDefinitions[app]?.fields ?? {}, key) ? field.label() : setting
}

/** A session's sign-in method (src/server/auth/methods.ts signInMethodOf) by the name of its switch. */
const methodSettings: Record<string, CoreSettingKey> = {
  emailPassword: 'authEmailPassword',
  username: 'authUsername',
  github: 'authGithub',
  google: 'authGoogle',
  oauth: 'authGenericOauth',
  magicLink: 'authMagicLink',
  emailOtp: 'authEmailOtp',
  passkey: 'authPasskey',
  anonymous: 'authAnonymous',
}

export function signInMethodLabel(method: string): string {
  const setting = Object.hasOwn(methodSettings, method) ? methodSettings[method] : undefined
  if (setting) return settingLabels[setting]()
  // An app's method (single sign-on) is named by its switch.
  for (const definition of Object.values(appDefinitions)) {
    for (const field of Object.values(definition.fields)) if (field.signInMethod?.id === method) return field.label()
  }
  return method
}

/** A stored value as a reader sees it: On/Off for switches, theme names, text as it is. */
export function describeSettingValue(value: unknown): string {
  if (value === true) return m.config_value_on()
  if (value === false) return m.config_value_off()
  if (value === 'light') return m.theme_light()
  if (value === 'dark') return m.theme_dark()
  if (value === 'system') return m.theme_system()
  return typeof value === 'string' ? value : JSON.stringify(value)
}
