import { useRouterState } from '@tanstack/react-router'
import { KeyRoundIcon } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import type { AuthMethods } from '#/lib/auth-methods'
import { getLocale } from '#/lib/i18n'
import { safeRedirectPath } from '#/lib/safe-redirect'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { authPageHref, goAfterSignIn } from '../after-sign-in'
import { startGoogleOneTap } from '../google-one-tap'
import { oauthErrorCallbackPath, oauthErrorOfSearch } from '../oauth-errors'
import { GithubIcon, GoogleIcon } from './brand-icons'

export interface SocialProvider {
  id: string
  name: string
  icon: ReactNode
}

/** GitHub, Google and every generic OAuth / OpenID provider that is switched on, in that order. */
export function enabledSocialProviders(methods: AuthMethods): SocialProvider[] {
  const iconClass = 'size-4'
  return [
    ...(methods.github ? [{ id: 'github', name: 'GitHub', icon: <GithubIcon className={iconClass} /> }] : []),
    ...(methods.google ? [{ id: 'google', name: 'Google', icon: <GoogleIcon className={iconClass} /> }] : []),
    ...methods.oauthProviders.map(({ id, name }) => ({
      id,
      name,
      icon: <KeyRoundIcon className={iconClass} aria-hidden />,
    })),
  ]
}

/**
 * "Continue with …" for each social and generic OAuth provider, on the sign-in and sign-up pages. The provider sends
 * the visitor back to `redirect` (when it is a path on this site) or the console; a failure comes back to this page
 * with `?oauth=failed&error=`, shown here translated. On the sign-in page Google one-tap is offered too when it is switched on.
 */
export function SocialButtons({
  redirect,
  page = '/sign-in',
}: {
  redirect: string | undefined
  page?: '/sign-in' | '/sign-up'
}) {
  const { authMethods } = useSiteSettings()
  const [openingProvider, setOpeningProvider] = useState<string | null>(null)
  const errorMessage = useRouterState({ select: (state) => oauthErrorOfSearch(state.location.search) })
  const providers = enabledSocialProviders(authMethods)
  const oneTapClientId = page === '/sign-in' ? authMethods.googleOneTapClientId : null

  // Coming back with the browser's Back button restores this page as it was left: "opening", buttons disabled.
  useEffect(() => {
    const reset = (event: PageTransitionEvent) => {
      if (event.persisted) setOpeningProvider(null)
    }
    window.addEventListener('pageshow', reset)
    return () => window.removeEventListener('pageshow', reset)
  }, [])

  useEffect(() => {
    if (oneTapClientId) void startGoogleOneTap(oneTapClientId, () => goAfterSignIn(redirect))
  }, [oneTapClientId, redirect])

  const continueWith = async (provider: SocialProvider) => {
    setOpeningProvider(provider.id)
    const target = safeRedirectPath(redirect) ?? localizeHref('/console', { locale: getLocale() })
    // On success Better Auth's client follows the provider's URL itself; the page stays "opening" until it leaves.
    const { error } = await authClient.signIn.social({
      provider: provider.id,
      callbackURL: target,
      newUserCallbackURL: target,
      errorCallbackURL: oauthErrorCallbackPath(authPageHref(page, redirect)),
    })
    if (error) {
      setOpeningProvider(null)
      toast.error(describeAuthError(error))
    }
  }

  if (providers.length === 0 && !errorMessage) return null
  return (
    <div className="grid gap-2" data-testid="social-sign-in">
      <FormNotice>{errorMessage}</FormNotice>
      {providers.map((provider) => (
        <Button
          key={provider.id}
          type="button"
          variant="outline"
          disabled={openingProvider !== null}
          onClick={() => continueWith(provider)}
        >
          {provider.icon}
          {openingProvider === provider.id
            ? m.oauth_opening({ provider: provider.name })
            : m.oauth_continue_with({ provider: provider.name })}
        </Button>
      ))}
    </div>
  )
}
