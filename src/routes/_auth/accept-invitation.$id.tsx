import { createFileRoute } from '@tanstack/react-router'
import { authPageHref } from '#/features/auth/after-sign-in'
import { AuthHeading } from '#/features/auth/components/auth-layout'
import { fetchSessionUser } from '#/features/auth/session-fn'
import { AcceptInvitation } from '#/features/organizations/components/accept-invitation'
import { invitationIdMax } from '#/features/organizations/search'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

export const Route = createFileRoute('/_auth/accept-invitation/$id')({
  loader: async ({ context, params }) => {
    // A malformed id in a mistyped link is an unknown invitation, not a failed page.
    const valid = params.id.length >= 1 && params.id.length <= invitationIdMax
    const [invitation, user] = await Promise.all([
      valid
        ? context.queryClient.fetchQuery(context.trpc.organizations.invitationPreview.queryOptions({ id: params.id }))
        : null,
      fetchSessionUser(),
    ])
    return { invitation, user }
  },
  head: () => ({ meta: [{ title: m.invite_page_title() }] }),
  component: function AcceptInvitationPage() {
    const { invitation, user } = Route.useLoaderData()
    const back = localizeHref(`/accept-invitation/${encodeURIComponent(Route.useParams().id)}`)
    return (
      <>
        <AuthHeading title={m.invite_page_title()} subtitle="" />
        <AcceptInvitation
          invitation={invitation}
          user={user}
          signInHref={authPageHref('/sign-in', back)}
          signUpHref={authPageHref('/sign-up', back, invitation?.email)}
        />
      </>
    )
  },
})
