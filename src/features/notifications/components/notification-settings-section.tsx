import { SettingsSection } from '#/components/settings-section'
import { m } from '#/paraglide/messages'
import { NotificationSettings } from './notification-settings'

/** Account → Notifications: loaded with that page only, so its labels stay out of every other console page. */
export default function NotificationSettingsSection() {
  return (
    <SettingsSection
      id="notifications"
      title={m.notifications_settings_title()}
      subtitle={m.notifications_settings_description()}
    >
      <NotificationSettings />
    </SettingsSection>
  )
}
