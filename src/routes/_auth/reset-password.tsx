import { createFileRoute } from '@tanstack/react-router'
import { AuthHeading } from '#/features/auth/components/auth-layout'
import { ResetPasswordForm } from '#/features/auth/components/reset-password-form'
import { emailLinkSearch } from '#/features/auth/search'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

export const Route = createFileRoute('/_auth/reset-password')({
  validateSearch: emailLinkSearch,
  head: () => ({ meta: [{ title: m.auth_reset_title() }] }),
  component: function ResetPasswordPage() {
    const { token, error } = Route.useSearch()
    return (
      <>
        <AuthHeading title={m.auth_reset_title()} subtitle={m.auth_reset_subtitle()} />
        {token && !error ? (
          <ResetPasswordForm token={token} />
        ) : (
          <div className="grid gap-4">
            <p role="alert">{m.auth_reset_invalid()}</p>
            <a className="text-sm text-primary hover:underline" href={localizeHref('/forgot-password')}>
              {m.auth_forgot_title()}
            </a>
          </div>
        )}
      </>
    )
  },
})
