import { appSettings } from '#/app-settings.gen'
import type { AppSettingsDefinition } from '#/lib/app-settings'
import type { AuthMethods } from '#/lib/auth-methods'
import type { AppSettings, SiteSettings } from '#/lib/site-settings'
import type { Env } from '../env'

/** The sign-in methods the installed apps switch (a field of their settings with `signInMethod`). */
const appSignInMethods = Object.values(appSettings as Readonly<Record<string, AppSettingsDefinition>>).flatMap(
  (definition) =>
    Object.entries(definition.fields).flatMap(([key, field]) =>
      field.signInMethod ? [{ app: definition.name, key, ...field.signInMethod }] : [],
    ),
)

/** Whether an app's sign-in method is switched on in these settings. */
function appMethodOn(method: (typeof appSignInMethods)[number], apps: AppSettings): boolean {
  return (apps as Record<string, Record<string, unknown>>)[method.app]?.[method.key] === true
}

type MethodEnv = Pick<Env, 'GITHUB_CLIENT_ID' | 'GOOGLE_CLIENT_ID' | 'OAUTH_PROVIDERS'>

export function enabledAuthMethods(settings: SiteSettings, env: MethodEnv): AuthMethods {
  const google = settings.authGoogle && Boolean(env.GOOGLE_CLIENT_ID)
  return {
    emailPassword: settings.authEmailPassword,
    username: settings.authEmailPassword && settings.authUsername,
    github: settings.authGithub && Boolean(env.GITHUB_CLIENT_ID),
    google,
    googleOneTapClientId: google && settings.authGoogleOneTap ? (env.GOOGLE_CLIENT_ID ?? null) : null,
    oauthProviders: settings.authGenericOauth ? env.OAUTH_PROVIDERS.map(({ id, name }) => ({ id, name })) : [],
    magicLink: settings.authMagicLink,
    emailOtp: settings.authEmailOtp,
    anonymous: settings.authAnonymous,
    passkey: settings.authPasskey,
  }
}

interface DisabledMethod {
  code: string
  message: string
}

const notEnabled = (code: string, message: string): DisabledMethod => ({ code, message })

/**
 * The error for a Better Auth request that uses a method switched off (or not configured), or null.
 * Checked on the server for every request, whatever the client shows. Generic OAuth providers are social providers
 * to Better Auth (`/sign-in/social` with their id), so `genericProviderIds` tells them apart from unknown ones.
 */
export function disabledMethodError(
  path: string,
  body: unknown,
  methods: AuthMethods,
  genericProviderIds: readonly string[],
  apps?: AppSettings,
): DisabledMethod | null {
  const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>
  const methodOff = notEnabled('SIGN_IN_METHOD_IS_NOT_ENABLED', 'This sign-in method is not enabled')
  // An app's method (single sign-on): its endpoints go with its switch.
  const appMethod = appSignInMethods.find((method) => method.paths.includes(path))
  if (appMethod && apps) return appMethodOn(appMethod, apps) ? null : methodOff
  switch (path) {
    case '/sign-in/email':
    case '/sign-up/email':
      return methods.emailPassword
        ? null
        : notEnabled('EMAIL_AND_PASSWORD_IS_NOT_ENABLED', 'Email and password is not enabled')
    case '/sign-in/username':
      return methods.username ? null : notEnabled('USERNAME_SIGN_IN_IS_NOT_ENABLED', 'Username sign-in is not enabled')
    case '/sign-in/social':
    case '/link-social': {
      const provider = fields.provider
      if (provider === 'github') return methods.github ? null : methodOff
      if (provider === 'google') return methods.google ? null : methodOff
      if (typeof provider === 'string' && genericProviderIds.includes(provider)) {
        return methods.oauthProviders.some(({ id }) => id === provider) ? null : methodOff
      }
      // Unknown providers are Better Auth's to refuse (PROVIDER_NOT_FOUND).
      return null
    }
    case '/one-tap/callback':
      return methods.googleOneTapClientId ? null : methodOff
    case '/sign-in/magic-link':
    case '/magic-link/verify':
      return methods.magicLink ? null : methodOff
    case '/sign-in/email-otp':
    case '/forget-password/email-otp':
      return methods.emailOtp ? null : methodOff
    case '/sign-in/anonymous':
      return methods.anonymous ? null : methodOff
    case '/passkey/generate-authenticate-options':
    case '/passkey/verify-authentication':
    case '/passkey/generate-register-options':
    case '/passkey/verify-registration':
      return methods.passkey ? null : methodOff
    default:
      // Every email-code endpoint (sending, verifying, resetting a password by code) goes with the switch.
      return path.startsWith('/email-otp/') && !methods.emailOtp ? methodOff : null
  }
}

/**
 * The sign-in method a new session comes from, by the endpoint that creates it (stored on the session, so
 * Configuration can warn an admin before switching off the method they are signed in with). Sessions made after a
 * second factor or by other routes have none.
 */
export function signInMethodOf(path: string | undefined, params: Record<string, unknown> | undefined): string | null {
  switch (path) {
    case '/sign-in/email':
    case '/sign-up/email':
    case '/verify-email':
      return 'emailPassword'
    case '/sign-in/username':
      return 'username'
    case '/magic-link/verify':
      return 'magicLink'
    case '/sign-in/email-otp':
      return 'emailOtp'
    case '/passkey/verify-authentication':
      return 'passkey'
    case '/sign-in/anonymous':
      return 'anonymous'
    case '/one-tap/callback':
      return 'google'
    case '/callback/:id': {
      const provider = params?.id
      return provider === 'github' || provider === 'google' ? provider : 'oauth'
    }
    case '/oauth2/callback/:providerId':
      return 'oauth'
    default:
      return appSignInMethods.find((method) => path && method.sessionPaths.includes(path))?.id ?? null
  }
}

/** Whether `method` (as signInMethodOf names it) can be used with these methods (and apps' switches) on. */
export function isSignInMethodEnabled(method: string, methods: AuthMethods, apps?: AppSettings): boolean {
  switch (method) {
    case 'emailPassword':
      return methods.emailPassword
    case 'username':
      return methods.username
    case 'github':
      return methods.github
    case 'google':
      return methods.google
    case 'oauth':
      return methods.oauthProviders.length > 0
    case 'magicLink':
      return methods.magicLink
    case 'emailOtp':
      return methods.emailOtp
    case 'passkey':
      return methods.passkey
    case 'anonymous':
      return methods.anonymous
    default: {
      const appMethod = appSignInMethods.find((candidate) => candidate.id === method)
      return appMethod && apps ? appMethodOn(appMethod, apps) : true
    }
  }
}

/**
 * Whether a returning user could still sign in at all (a guest cannot come back, so guests do not count; nor does
 * single sign-on, which only serves organizations that set it up, not the app's admins).
 */
export function anySignInMethodLeft(methods: AuthMethods): boolean {
  return (
    methods.emailPassword ||
    methods.github ||
    methods.google ||
    methods.oauthProviders.length > 0 ||
    methods.magicLink ||
    methods.emailOtp ||
    methods.passkey
  )
}
