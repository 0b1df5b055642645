import { createFileRoute } from '@tanstack/react-router'
import { authPageHref } from '#/features/auth/after-sign-in'
import { AuthHeading } from '#/features/auth/components/auth-layout'
import { magicLinkSearch } from '#/features/auth/search'
import { m } from '#/paraglide/messages'

/** Where an emailed sign-in link that did not work lands (Better Auth adds `error`); a working one signs in instead. */
export const Route = createFileRoute('/_auth/magic-link')({
  validateSearch: magicLinkSearch,
  head: () => ({ meta: [{ title: m.email_signin_link_title() }] }),
  component: function MagicLinkPage() {
    const { error, redirect } = Route.useSearch()
    return (
      <>
        <AuthHeading title={m.email_signin_link_title()} subtitle="" />
        <div className="grid gap-4">
          <p role="alert" data-testid="magic-link-error">
            {error === 'INVALID_TOKEN' || !error ? m.email_signin_link_invalid() : m.email_signin_link_failed()}
          </p>
          <a
            className="text-sm text-primary underline-offset-4 hover:underline"
            href={authPageHref('/sign-in', redirect)}
          >
            {m.auth_back_to_sign_in()}
          </a>
        </div>
      </>
    )
  },
})
