import { createFileRoute } from '@tanstack/react-router'
import { SettingsSection } from '#/components/settings-section'
import { AccountScreen } from '#/features/account/components/account-screen'
import { NotificationSettings } from '#/features/notifications/components/notification-settings'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/account')({
  head: () => ({ meta: [{ title: m.account_title() }] }),
  staticData: { crumb: m.console_account },
  component: function AccountPage() {
    const { user } = Route.useRouteContext()
    return (
      <AccountScreen
        user={user}
        notificationSettings={
          <SettingsSection
            id="notifications"
            title={m.notifications_settings_title()}
            subtitle={m.notifications_settings_description()}
          >
            <NotificationSettings />
          </SettingsSection>
        }
      />
    )
  },
})
