import { createFileRoute } from '@tanstack/react-router'
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
    const { redirect } = Route.useSearch()
    const { productName } = useSiteSettings()
    return (
      <>
        <AuthHeading title={m.auth_sign_up_title()} subtitle={m.auth_sign_up_subtitle({ product: productName })} />
        <SignUpForm redirect={redirect} />
        <div className="mt-6">
          <SocialButtons redirect={redirect} page="/sign-up" />
        </div>
      </>
    )
  },
})
