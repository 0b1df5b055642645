import { useQuery } from '@tanstack/react-query'
import { useRouterState } from '@tanstack/react-router'
import { KeyRoundIcon, MailIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import {
  enabledSocialProviders,
  oauthErrorCallbackPath,
  oauthErrorOfSearch,
  type SocialProvider,
} from '#/features/auth'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { currentIntlLocale } from '#/lib/i18n'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { linkedAccountsQuery, passwordProviderId } from '../linked-accounts-query'

/**
 * The sign-in methods linked to this user (one account row per provider), linking any switched-on provider not linked
 * yet, and unlinking — except the last one, which Better Auth refuses (FAILED_TO_UNLINK_LAST_ACCOUNT) and the button
 * says so beforehand.
 */
export function LinkedAccountsSection() {
  const { authMethods } = useSiteSettings()
  const refresh = useAuthRefresh()
  const [busy, setBusy] = useState<string | null>(null)
  const { data: accounts, isPending } = useQuery(linkedAccountsQuery)
  // A failed link comes back to this page with `?error=`.
  const errorMessage = useRouterState({ select: (state) => oauthErrorOfSearch(state.location.search) })

  const providers = enabledSocialProviders(authMethods)
  const nameOf = (providerId: string) =>
    providerId === passwordProviderId
      ? m.account_linked_email_password()
      : (providers.find(({ id }) => id === providerId)?.name ?? providerId)
  const dateFormat = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })

  const link = async (provider: SocialProvider) => {
    setBusy(provider.id)
    const accountPage = localizeHref('/console/account')
    // On success the client follows the provider's URL; the provider sends the browser back to this page.
    const { error } = await authClient.linkSocial({
      provider: provider.id,
      callbackURL: accountPage,
      errorCallbackURL: oauthErrorCallbackPath(accountPage),
    })
    if (error) {
      setBusy(null)
      toast.error(describeAuthError(error))
    }
  }

  const unlink = async (account: { id: string; providerId: string }) => {
    setBusy(account.providerId)
    // Better Auth 1.7 names the account by its own row id here (not the provider's account id).
    const { error } = await authClient.unlinkAccount({ accountId: account.id })
    setBusy(null)
    if (error) toast.error(describeAuthError(error))
    else toast.success(m.account_linked_unlinked({ provider: nameOf(account.providerId) }))
    await refresh.accounts()
  }

  if (isPending || !accounts) return <p className="mt-4 text-sm text-muted-foreground">{m.account_linked_loading()}</p>
  // Only provider accounts have an Unlink button, so only they need to say why it is off.
  const onlyMethod = accounts.length <= 1
  const explainLastMethod = onlyMethod && accounts.some(({ providerId }) => providerId !== passwordProviderId)
  const linkable = providers.filter(({ id }) => !accounts.some((account) => account.providerId === id))
  return (
    <div className="mt-4 grid gap-3">
      <FormNotice>{errorMessage}</FormNotice>
      <ul className="divide-y rounded-lg border" data-testid="linked-accounts">
        {accounts.map((account) => {
          const name = nameOf(account.providerId)
          const isPassword = account.providerId === passwordProviderId
          return (
            <li key={account.id} className="flex flex-wrap items-center gap-3 p-3 text-sm">
              {isPassword ? (
                <MailIcon className="size-5 text-muted-foreground" aria-hidden />
              ) : (
                (providers.find(({ id }) => id === account.providerId)?.icon ?? (
                  <KeyRoundIcon className="size-5 text-muted-foreground" aria-hidden />
                ))
              )}
              <div className="min-w-0 flex-1">
                <p className="font-medium">{name}</p>
                <p className="text-muted-foreground">
                  {m.account_linked_since({ date: dateFormat.format(new Date(account.createdAt)) })}
                </p>
              </div>
              {/* The password is changed in its own section; only provider accounts are unlinked here. */}
              {isPassword ? null : (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={m.account_linked_unlink_label({ provider: name })}
                  aria-describedby={onlyMethod ? 'linked-accounts-last-method' : undefined}
                  disabled={onlyMethod || busy !== null}
                  onClick={() => unlink(account)}
                >
                  {m.account_linked_unlink()}
                </Button>
              )}
            </li>
          )
        })}
      </ul>
      {explainLastMethod ? (
        <p id="linked-accounts-last-method" className="text-sm text-muted-foreground">
          {m.account_linked_last_method()}
        </p>
      ) : null}
      {linkable.length > 0 ? (
        <div className="grid gap-2">
          <h3 className="text-sm font-medium">{m.account_linked_link_title()}</h3>
          <div className="flex flex-wrap gap-2">
            {linkable.map((provider) => (
              <Button
                key={provider.id}
                variant="outline"
                size="sm"
                disabled={busy !== null}
                onClick={() => link(provider)}
              >
                {provider.icon}
                {m.account_linked_link({ provider: provider.name })}
              </Button>
            ))}
          </div>
        </div>
      ) : null}
    </div>
  )
}
