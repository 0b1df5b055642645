import type { ReactNode } from 'react'
import { PersonAvatar } from '#/components/person-avatar'
import { SettingsSection } from '#/components/settings-section'
import type { SessionUser } from '#/lib/session-user'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { ApiKeysSection } from './api-keys-section'
import { DeleteAccountSection } from './delete-account-section'
import { EmailSection } from './email-section'
import { LinkedAccountsSection } from './linked-accounts-section'
import { PasskeysSection } from './passkeys-section'
import { PasswordSection } from './password-section'
import { ProfileSection } from './profile-section'
import { SessionsSection } from './sessions-section'
import { TwoFactorSection } from './two-factor-section'

/** `appSections`: the installed apps' sections (Account → Notifications), composed by the route. */
export function AccountScreen({ user, appSections }: { user: SessionUser; appSections?: ReactNode }) {
  const { authMethods } = useSiteSettings()
  return (
    <div className="max-w-2xl">
      <h1 className="text-2xl font-semibold tracking-tight">{m.account_title()}</h1>
      <p className="mt-1 text-muted-foreground">{m.account_subtitle()}</p>
      <SettingsSection id="profile" title={m.account_profile()}>
        <div className="mt-4 flex items-center gap-4">
          <PersonAvatar person={user} size="lg" alt={m.account_picture()} testId="avatar-image" />
          <dl className="grid min-w-0 gap-1 text-sm">
            <dt className="sr-only">{m.auth_name_label()}</dt>
            <dd className="text-base font-medium" data-testid="account-name">
              {user.name}
            </dd>
            <dt className="sr-only">{m.auth_email_label()}</dt>
            <dd className="[overflow-wrap:anywhere]" data-testid="account-email">
              {user.isAnonymous ? (
                // A guest's address is a made-up placeholder; showing it would only confuse.
                <span className="text-muted-foreground">{m.guest_account_note()}</span>
              ) : (
                <>
                  {user.email}{' '}
                  <span className="rounded-full border px-2 py-0.5 text-xs text-muted-foreground">
                    {user.emailVerified ? m.account_email_verified() : m.account_email_unverified()}
                  </span>
                </>
              )}
            </dd>
            <dt className="sr-only">{m.auth_username_label()}</dt>
            <dd className="text-muted-foreground" data-testid="account-username">
              {user.username ? `@${user.username}` : m.account_no_username()}
            </dd>
          </dl>
        </div>
        <ProfileSection user={user} />
      </SettingsSection>
      {/*
        A guest has no email, password or provider of their own: signing up gives them those, so the sections that
        manage them (and deleting, which needs the password) wait until then.
      */}
      {user.isAnonymous ? null : (
        <>
          <SettingsSection
            id="email"
            title={m.account_email_change_title()}
            subtitle={m.account_email_change_subtitle()}
          >
            <EmailSection user={user} />
          </SettingsSection>
          <SettingsSection id="password" title={m.account_password_title()}>
            <PasswordSection email={user.email} />
          </SettingsSection>
          <SettingsSection id="two-factor" title={m.twofa_title()} subtitle={m.twofa_subtitle()}>
            <TwoFactorSection user={user} />
          </SettingsSection>
          <SettingsSection id="linked-accounts" title={m.account_linked_title()} subtitle={m.account_linked_subtitle()}>
            <LinkedAccountsSection />
          </SettingsSection>
        </>
      )}
      {/* Passkeys switched off in site settings can neither sign in nor be added (the server refuses both). */}
      {authMethods.passkey ? (
        <SettingsSection id="passkeys" title={m.passkey_section_title()} subtitle={m.passkey_section_subtitle()}>
          <PasskeysSection />
        </SettingsSection>
      ) : null}
      {user.isAnonymous ? null : appSections}
      <SettingsSection id="sessions" title={m.account_sessions_title()} subtitle={m.account_sessions_subtitle()}>
        <SessionsSection />
      </SettingsSection>
      <SettingsSection id="api-keys" title={m.apikeys_title()} subtitle={m.apikeys_subtitle()}>
        <ApiKeysSection />
      </SettingsSection>
      {user.isAnonymous ? null : (
        <SettingsSection id="delete-account" title={m.account_delete_title()}>
          <DeleteAccountSection />
        </SettingsSection>
      )}
    </div>
  )
}
