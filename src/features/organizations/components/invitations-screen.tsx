import { MailIcon } from 'lucide-react'
import { toast } from 'sonner'
import { PageHeader } from '#/components/page-header'
import { PlanLimitReached, usePlanLimit } from '#/components/plan-limit-notice'
import { SettingsSection } from '#/components/settings-section'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useConsoleSession } from '#/lib/console-session'
import { upgradeActionFor } from '#/lib/error-toast'
import { sendWith, useAppForm } from '#/lib/form'
import { getLocale, localeNames, locales } from '#/lib/i18n'
import { roleLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'
import { useAssignableRoles, useFullOrganization } from '../organization-queries'
import { inviteMemberSchema } from '../schemas'
import { PendingInvitations } from './pending-invitations'
import { QueryState } from './query-state'
import { showAuthFieldError } from './show-auth-field-error'

/** Better Auth's refusals that are about the address invited. */
const inviteFieldOfCode = {
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: 'email',
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: 'email',
} as const

function InviteForm({ teams }: { teams: { id: string; name: string }[] }) {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const roles = useAssignableRoles()
  const memberLimit = usePlanLimit('members')
  // Only an owner may invite another owner (the server refuses it for anyone else).
  const offered = session.member.roles.includes('owner') ? roles : roles.filter((role) => role !== 'owner')
  const form = useAppForm({
    defaultValues: { email: '', role: 'member', teamId: '', locale: getLocale() },
    validators: { onDynamic: inviteMemberSchema },
    onSubmit: async ({ value, formApi }) => {
      const values = inviteMemberSchema.parse(value)
      const { error } = await authClient.organization.inviteMember({
        email: values.email,
        role: values.role as 'member',
        organizationId: session.organization.id,
        ...(values.teamId ? { teamId: values.teamId } : {}),
        // The invitation email is written in this language (an additional field of the invitation).
        ...({ locale: values.locale } as object),
      })
      if (error) {
        if (!showAuthFieldError(formApi, error, inviteFieldOfCode)) {
          toast.error(describeAuthError(error), upgradeActionFor(error.code))
        }
        return
      }
      formApi.reset()
      toast.success(m.invitations_sent({ email: values.email }))
      await refresh.activeOrganization()
    },
  })

  return (
    <form
      method="post"
      noValidate
      aria-label={m.invitations_form_title()}
      className="mt-4 grid gap-4"
      onSubmit={sendWith(form)}
    >
      <form.AppField name="email">
        {(field) => (
          <field.TextField
            label={m.auth_email_label()}
            type="email"
            autoComplete="off"
            placeholder="name@example.com"
          />
        )}
      </form.AppField>
      <div className="grid gap-4 sm:grid-cols-3">
        <form.AppField name="role">
          {(field) => (
            <field.SelectField label={m.invitations_role_label()}>
              {offered.map((role) => (
                <option key={role} value={role}>
                  {roleLabel(role)}
                </option>
              ))}
            </field.SelectField>
          )}
        </form.AppField>
        <form.AppField name="teamId">
          {(field) => (
            <field.SelectField label={m.invitations_team_label()}>
              <option value="">{m.invitations_no_team()}</option>
              {teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </field.SelectField>
          )}
        </form.AppField>
        <form.AppField name="locale">
          {(field) => (
            <field.SelectField label={m.invitations_language_label()}>
              {locales.map((locale) => (
                <option key={locale} value={locale}>
                  {localeNames[locale]}
                </option>
              ))}
            </field.SelectField>
          )}
        </form.AppField>
      </div>
      <PlanLimitReached name="members" id="invite-limit" />
      <div>
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(submitting) => (
            <Button
              type="submit"
              disabled={submitting || Boolean(memberLimit?.reached)}
              aria-describedby={memberLimit?.reached ? 'invite-limit' : undefined}
            >
              <MailIcon aria-hidden />
              {submitting ? m.invitations_sending() : m.invitations_send()}
            </Button>
          )}
        </form.Subscribe>
      </div>
    </form>
  )
}

/** Invite people by email, and see, resend or cancel the invitations still waiting for an answer. */
export function InvitationsScreen() {
  const session = useConsoleSession()
  const query = useFullOrganization()
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={m.invitations_title()}
        description={m.invitations_description({ organization: session.organization.name })}
      />
      <QueryState query={query}>
        {(organization) => (
          <>
            <SettingsSection id="invite" title={m.invitations_form_title()} subtitle={m.invitations_form_subtitle()}>
              <InviteForm teams={organization.teams ?? []} />
            </SettingsSection>
            <SettingsSection id="pending" title={m.invitations_pending_title()}>
              <div className="mt-4">
                <PendingInvitations
                  invitations={organization.invitations.filter(
                    (invitation) =>
                      invitation.status === 'pending' && new Date(invitation.expiresAt).getTime() > Date.now(),
                  )}
                />
              </div>
            </SettingsSection>
          </>
        )}
      </QueryState>
    </div>
  )
}
