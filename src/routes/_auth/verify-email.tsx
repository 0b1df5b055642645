import { createFileRoute } from '@tanstack/react-router'
import { AuthHeading } from '#/features/auth/components/auth-layout'
import { VerifyEmailStatus } from '#/features/auth/components/verify-email-status'
import { emailLinkSearch } from '#/features/auth/search'
import { fetchSessionUser } from '#/features/auth/session-fn'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/_auth/verify-email')({
  validateSearch: emailLinkSearch,
  loaderDeps: ({ search }) => ({ error: search.error }),
  loader: () => fetchSessionUser(),
  head: () => ({ meta: [{ title: m.auth_verify_title() }] }),
  component: function VerifyEmailPage() {
    const { error } = Route.useSearch()
    return (
      <>
        <AuthHeading title={m.auth_verify_title()} subtitle="" />
        <VerifyEmailStatus user={Route.useLoaderData()} failed={Boolean(error)} />
      </>
    )
  },
})
