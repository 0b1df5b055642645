import { createFileRoute, Link } from '@tanstack/react-router'
import { Button } from '#/components/ui/button'
import { AuthHeading } from '#/features/auth/components/auth-layout'
import { SignUpForm } from '#/features/auth/components/sign-up-form'
import { SocialButtons } from '#/features/auth/components/social-buttons'
import { authPageSearch } from '#/features/auth/search'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/_auth/sign-up')({
  validateSearch: authPageSearch,
  head: () => ({ meta: [{ title: m.auth_sign_up_title() }] }),
  component: function SignUpPage() {
    const { redirect, email } = Route.useSearch()
    const { productName, signUpOpen } = useSiteSettings()
    if (!signUpOpen) {
      return (
        <>
          <AuthHeading title={m.auth_sign_up_closed_title()} subtitle={m.auth_sign_up_closed()} />
          <Button asChild className="w-full">
            <Link to="/sign-in" search={{ redirect }}>
              {m.auth_sign_up_closed_sign_in()}
            </Link>
          </Button>
        </>
      )
    }
    return (
      <>
        <AuthHeading title={m.auth_sign_up_title()} subtitle={m.auth_sign_up_subtitle({ product: productName })} />
        <SignUpForm redirect={redirect} email={email} />
        <div className="mt-6">
          <SocialButtons redirect={redirect} page="/sign-up" />
        </div>
      </>
    )
  },
})
