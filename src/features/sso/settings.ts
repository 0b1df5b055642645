import { defineAppSettings } from '#/lib/app-settings'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'

/** The endpoints that finish a single sign-on and make the session (OpenID Connect, SAML). */
export const ssoCallbackPaths = ['/sso/callback/:providerId', '/sso/saml2/sp/acs/:providerId'] as const

/**
 * The site-wide switch of single sign-on, a sign-in method: off, the sign-in page hides "Sign in with SSO" and the
 * server refuses its endpoints, whatever the organizations set up (and "must use SSO" rests, or nobody could sign in).
 */
export const settings = defineAppSettings({
  name: 'sso',
  title: m.sso_settings_title,
  description: m.sso_settings_description,
  fields: {
    enabled: {
      schema: z.boolean(),
      default: true,
      label: m.config_auth_sso,
      hint: m.sso_settings_enabled_hint,
      signInMethod: { id: 'sso', paths: ['/sign-in/sso', ...ssoCallbackPaths], sessionPaths: ssoCallbackPaths },
    },
  },
})
