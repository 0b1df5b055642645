import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { ConsoleLayout } from '#/features/console/components/console-layout'
import { ConsoleNotFound } from '#/features/console/components/no-access'
import { fetchConsoleSession } from '#/features/console/console-session-fn'
import { OrganizationSwitcher } from '#/features/organizations/components/organization-switcher'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

export const Route = createFileRoute('/console')({
  // One chunk for the page and its not-found: both draw the console's frame, which would otherwise be copied into
  // each whenever the code they share is small enough for the bundler to inline.
  codeSplitGroupings: [['component', 'notFoundComponent']],
  // Signed-out visitors go to sign-in, which brings them back here afterwards.
  beforeLoad: async ({ location }) => {
    const session = await fetchConsoleSession()
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: localizeHref(location.href) } })
    return { user: session.user, consoleSession: session }
  },
  staticData: { crumb: m.console_nav_label },
  component: function ConsoleArea() {
    const { consoleSession } = Route.useRouteContext()
    return (
      <ConsoleLayout session={consoleSession} switcher={<OrganizationSwitcher session={consoleSession} />}>
        <Outlet />
      </ConsoleLayout>
    )
  },
  // A console page that does not exist, or that the person may not open, keeps the console around the message.
  notFoundComponent: function ConsolePageNotFound({ data }) {
    const { consoleSession } = Route.useRouteContext()
    return (
      <ConsoleLayout session={consoleSession} switcher={<OrganizationSwitcher session={consoleSession} />}>
        <ConsoleNotFound data={data} session={consoleSession} />
      </ConsoleLayout>
    )
  },
})
