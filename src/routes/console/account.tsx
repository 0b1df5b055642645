import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { consoleApps } from '#/console-apps.gen'
import { AccountScreen } from '#/features/account/components/account-screen'
import { m } from '#/paraglide/messages'

/** The installed apps' sections of this page (their manifests' `accountSections`). */
const appSections = consoleApps.flatMap((app) => app.accountSections ?? [])

export const Route = createFileRoute('/console/account')({
  head: () => ({ meta: [{ title: m.account_title() }] }),
  staticData: { crumb: m.console_account },
  component: function AccountPage() {
    const { user } = Route.useRouteContext()
    return (
      <AccountScreen
        user={user}
        appSections={appSections.map((Section, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed when the app is built
          <Suspense key={index}>
            <Section />
          </Suspense>
        ))}
      />
    )
  },
})
