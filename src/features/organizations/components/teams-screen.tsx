import { UsersIcon } from 'lucide-react'
import { toast } from 'sonner'
import { EmptyState } from '#/components/empty-state'
import { PageHeader } from '#/components/page-header'
import { SettingsSection } from '#/components/settings-section'
import { Button } from '#/components/ui/button'
import { organizationLimits } from '#/features/organizations/organization-names'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { sendWith, useAppForm } from '#/lib/form'
import { m } from '#/paraglide/messages'
import { useFullOrganization, useUserTeams } from '../organization-queries'
import { teamSchema } from '../schemas'
import { QueryState } from './query-state'
import { TeamCard } from './team-card'

function CreateTeamForm() {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const form = useAppForm({
    defaultValues: { name: '' },
    validators: { onDynamic: teamSchema },
    onSubmit: async ({ value, formApi }) => {
      const { name } = teamSchema.parse(value)
      const { error } = await authClient.organization.createTeam({ name, organizationId: session.organization.id })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      formApi.reset()
      toast.success(m.teams_created({ name }))
      await refresh.activeOrganization()
    },
  })

  return (
    <form
      method="post"
      noValidate
      aria-label={m.teams_create()}
      className="mt-4 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start"
      onSubmit={sendWith(form)}
    >
      <form.AppField name="name">
        {(field) => (
          <field.TextField label={m.teams_name_label()} maxLength={organizationLimits.teamNameMax} autoComplete="off" />
        )}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button type="submit" disabled={submitting} className="sm:mt-6">
            {m.teams_create()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}

function YourTeams() {
  const query = useUserTeams()
  return (
    <SettingsSection id="your-teams" title={m.teams_yours_title()}>
      <QueryState query={query}>
        {(teams) =>
          teams.length === 0 ? (
            <p className="mt-3 text-sm text-muted-foreground">{m.teams_yours_none()}</p>
          ) : (
            <ul className="mt-3 flex flex-wrap gap-2" data-testid="your-teams">
              {teams.map((team) => (
                <li key={team.id} className="rounded-full border px-3 py-1 text-sm">
                  {team.name}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </SettingsSection>
  )
}

/** The organization's teams: the ones you are in, creating, renaming and deleting teams, and who is in each. */
export function TeamsScreen() {
  const session = useConsoleSession()
  const query = useFullOrganization()
  const canCreate = useCan({ team: ['create'] })
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={m.teams_title()}
        description={m.teams_description({ organization: session.organization.name })}
      />
      <YourTeams />
      {canCreate ? (
        <SettingsSection id="create-team" title={m.teams_create()}>
          <CreateTeamForm />
        </SettingsSection>
      ) : null}
      <section aria-labelledby="all-teams-title" className="mt-6">
        <h2 id="all-teams-title" className="mb-3 font-semibold">
          {m.teams_all_title()}
        </h2>
        <QueryState query={query}>
          {(organization) =>
            (organization.teams ?? []).length === 0 ? (
              <EmptyState icon={UsersIcon} title={m.teams_empty_title()}>
                {m.teams_empty()}
              </EmptyState>
            ) : (
              <ul className="grid gap-4" data-testid="teams-list">
                {(organization.teams ?? []).map((team) => (
                  <TeamCard key={team.id} team={team} members={organization.members} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </section>
    </div>
  )
}
