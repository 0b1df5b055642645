import type { AuthMethods } from '#/lib/auth-methods'
import type { SiteSettings } from '#/lib/site-settings'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { appSignInAlternatives } from '../sign-in-apps'
import { ContinueAsGuestButton } from './continue-as-guest'
import { EmailCodeSignIn } from './email-code-sign-in'
import { MagicLinkSignIn } from './magic-link-sign-in'
import { PasskeySignInButton } from './passkey-sign-in-button'
import { SocialButtons } from './social-buttons'

/** Whether any method besides the password form is on (the divider and the block show only then). */
function hasAlternatives(methods: AuthMethods, signUpOpen: boolean, settings: Pick<SiteSettings, 'apps'>): boolean {
  return (
    appSignInAlternatives.some((alternative) => alternative.shown(settings)) ||
    methods.github ||
    methods.google ||
    methods.oauthProviders.length > 0 ||
    methods.magicLink ||
    methods.emailOtp ||
    methods.passkey ||
    (methods.anonymous && signUpOpen)
  )
}

/**
 * Every sign-in method other than the password form, each shown only when switched on and configured
 * (`authMethods` from site settings). Each method's button lives in its own file.
 */
export function SignInAlternatives({ redirect }: { redirect: string | undefined }) {
  const settings = useSiteSettings()
  const { authMethods, signUpOpen } = settings
  if (!hasAlternatives(authMethods, signUpOpen, settings)) return null
  return (
    <div className="mt-6 grid gap-3">
      <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
        <span className="h-px flex-1 bg-border" />
        {m.auth_or_continue_with()}
        <span className="h-px flex-1 bg-border" />
      </div>
      <SocialButtons redirect={redirect} />
      {appSignInAlternatives.map(({ shown, component: Alternative, key }) =>
        shown(settings) ? <Alternative key={key} redirect={redirect} /> : null,
      )}
      {authMethods.passkey ? <PasskeySignInButton redirect={redirect} /> : null}
      {authMethods.magicLink ? <MagicLinkSignIn redirect={redirect} /> : null}
      {authMethods.emailOtp ? <EmailCodeSignIn redirect={redirect} /> : null}
      {/* A guest is a new account: not offered while sign-up is closed. */}
      {authMethods.anonymous && signUpOpen ? <ContinueAsGuestButton redirect={redirect} /> : null}
    </div>
  )
}
