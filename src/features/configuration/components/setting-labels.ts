import type { SiteSettingsInput } from '#/lib/site-settings'
import { m } from '#/paraglide/messages'

/** Each setting's name, as the form and the change history show it. */
export const settingLabels: Record<keyof SiteSettingsInput, () => string> = {
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
  authSso: m.config_auth_sso,
  signUpOpen: m.config_sign_up_open,
  emailVerificationRequired: m.config_email_verification_required,
  analyticsEnabled: m.config_analytics_enabled,
  analyticsTimeZone: m.config_analytics_time_zone,
}

/** A session's sign-in method (src/server/auth/methods.ts signInMethodOf) by the name of its switch. */
const methodSettings: Record<string, keyof SiteSettingsInput> = {
  emailPassword: 'authEmailPassword',
  username: 'authUsername',
  github: 'authGithub',
  google: 'authGoogle',
  oauth: 'authGenericOauth',
  magicLink: 'authMagicLink',
  emailOtp: 'authEmailOtp',
  passkey: 'authPasskey',
  sso: 'authSso',
  anonymous: 'authAnonymous',
}

export function signInMethodLabel(method: string): string {
  const setting = Object.hasOwn(methodSettings, method) ? methodSettings[method] : undefined
  return setting ? settingLabels[setting]() : method
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
