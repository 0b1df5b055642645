import { createFileRoute } from '@tanstack/react-router'
import { AccountScreen } from '#/features/account/components/account-screen'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/account')({
  head: () => ({ meta: [{ title: m.account_title() }] }),
  staticData: { crumb: m.console_account },
  component: function AccountPage() {
    const { user } = Route.useRouteContext()
    return <AccountScreen user={user} />
  },
})
