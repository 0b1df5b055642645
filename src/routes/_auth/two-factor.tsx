import { createFileRoute } from '@tanstack/react-router'
import { AuthHeading } from '#/features/auth/components/auth-layout'
import { NoTwoFactorChallenge, TwoFactorChallenge } from '#/features/auth/components/two-factor-challenge'
import { authPageSearch } from '#/features/auth/search'
import { fetchTwoFactorChallenge } from '#/features/auth/two-factor-fn'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/_auth/two-factor')({
  validateSearch: authPageSearch,
  loader: () => fetchTwoFactorChallenge(),
  head: () => ({ meta: [{ title: m.twofa_challenge_title() }] }),
  component: function TwoFactorPage() {
    const { redirect } = Route.useSearch()
    const { pending } = Route.useLoaderData()
    return (
      <>
        <AuthHeading title={m.twofa_challenge_title()} subtitle="" />
        {pending ? <TwoFactorChallenge redirect={redirect} /> : <NoTwoFactorChallenge redirect={redirect} />}
      </>
    )
  },
})
