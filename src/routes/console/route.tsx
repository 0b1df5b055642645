import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { fetchSessionUser } from '#/features/auth/session-fn'
import { ConsoleLayout } from '#/features/console/components/console-layout'
import { localizeHref } from '#/paraglide/runtime'

export const Route = createFileRoute('/console')({
  // Signed-out visitors go to sign-in, which brings them back here afterwards.
  beforeLoad: async ({ location }) => {
    const user = await fetchSessionUser()
    if (!user) throw redirect({ to: '/sign-in', search: { redirect: localizeHref(location.href) } })
    return { user }
  },
  component: function ConsoleArea() {
    const { user } = Route.useRouteContext()
    return (
      <ConsoleLayout user={user}>
        <Outlet />
      </ConsoleLayout>
    )
  },
})
