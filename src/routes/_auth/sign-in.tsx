import { createFileRoute } from '@tanstack/react-router'
import { AuthHeading } from '#/features/auth/components/auth-layout'
import { SignInAlternatives } from '#/features/auth/components/sign-in-alternatives'
import { SignInForm } from '#/features/auth/components/sign-in-form'
import { authPageSearch } from '#/features/auth/search'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/_auth/sign-in')({
  validateSearch: authPageSearch,
  head: () => ({ meta: [{ title: m.auth_sign_in() }] }),
  component: function SignInPage() {
    const { redirect } = Route.useSearch()
    const { productName } = useSiteSettings()
    return (
      <>
        <AuthHeading title={m.auth_sign_in_title({ product: productName })} subtitle={m.auth_sign_in_subtitle()} />
        <SignInForm redirect={redirect} />
        <SignInAlternatives redirect={redirect} />
      </>
    )
  },
})
