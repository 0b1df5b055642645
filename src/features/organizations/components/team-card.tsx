import { PencilIcon, Trash2Icon, UserMinusIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { PersonAvatar } from '#/components/person-avatar'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { organizationLimits } from '#/features/organizations/organization-names'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan } from '#/lib/console-session'
import { describeError } from '#/lib/errors'
import { sendWith, useAppForm } from '#/lib/form'
import { oneFinalStop } from '#/lib/sentence'
import { m } from '#/paraglide/messages'
import { type OrganizationMember, useTeamMembers } from '../organization-queries'
import { teamMemberSchema, teamSchema } from '../schemas'

interface Team {
  id: string
  name: string
}

function RenameTeam({ team, onDone }: { team: Team; onDone: () => void }) {
  const refresh = useAuthRefresh()
  const form = useAppForm({
    defaultValues: { name: team.name },
    validators: { onDynamic: teamSchema },
    onSubmit: async ({ value }) => {
      const { name } = teamSchema.parse(value)
      const { error } = await authClient.organization.updateTeam({ teamId: team.id, data: { name } })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      toast.success(oneFinalStop(m.teams_renamed({ name })))
      onDone()
      await refresh.activeOrganization()
    },
  })
  return (
    <form
      noValidate
      aria-label={m.teams_rename_named({ name: team.name })}
      className="flex flex-wrap items-start gap-2"
      onSubmit={sendWith(form)}
    >
      <div className="w-full max-w-xs">
        <form.AppField name="name">
          {(field) => <field.TextField label={m.teams_name_label()} maxLength={organizationLimits.teamNameMax} />}
        </form.AppField>
      </div>
      {/* Level with the input, below its label. */}
      <div className="flex gap-2 sm:mt-7">
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(submitting) => (
            <Button type="submit" size="sm" disabled={submitting}>
              {m.save()}
            </Button>
          )}
        </form.Subscribe>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          {m.cancel()}
        </Button>
      </div>
    </form>
  )
}

/** Adds one of `candidates` (the organization's members not yet in the team) to the team. */
function AddTeamMember({ team, candidates }: { team: Team; candidates: OrganizationMember[] }) {
  const refresh = useAuthRefresh()
  const form = useAppForm({
    defaultValues: { userId: candidates[0]?.userId ?? '' },
    validators: { onDynamic: teamMemberSchema },
    onSubmit: async ({ value }) => {
      const name = candidates.find((member) => member.userId === value.userId)?.user.name ?? value.userId
      const { error } = await authClient.organization.addTeamMember({ teamId: team.id, userId: value.userId })
      if (error) toast.error(describeAuthError(error))
      else toast.success(oneFinalStop(m.teams_member_added({ name, team: team.name })))
      await refresh.activeOrganization()
    },
  })
  return (
    <form
      noValidate
      aria-label={m.teams_add_member_to({ team: team.name })}
      className="mt-3 flex flex-wrap items-start gap-2"
      onSubmit={sendWith(form)}
    >
      <div className="w-full max-w-xs">
        <form.AppField name="userId">
          {(field) => (
            <field.SelectField label={m.teams_add_member_label()}>
              {candidates.map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.user.name} ({member.user.email})
                </option>
              ))}
            </field.SelectField>
          )}
        </form.AppField>
      </div>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button type="submit" size="sm" variant="outline" disabled={submitting} className="sm:mt-7">
            {m.teams_add_member()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}

/** One team: its name, who is in it, and (with the permissions) renaming, deleting and changing its members. */
export function TeamCard({ team, members }: { team: Team; members: OrganizationMember[] }) {
  const refresh = useAuthRefresh()
  const canRename = useCan({ team: ['update'] })
  const canDelete = useCan({ team: ['delete'] })
  const canAdd = useCan({ member: ['update'] })
  const canRemove = useCan({ member: ['delete'] })
  const [renaming, setRenaming] = useState(false)
  const teamMembers = useTeamMembers(team.id)
  const inTeam = new Set((teamMembers.data ?? []).map((entry) => entry.userId))
  const nameOf = (userId: string) => members.find((member) => member.userId === userId)?.user.name ?? userId
  const candidates = members.filter((member) => !inTeam.has(member.userId))

  const remove = async (userId: string) => {
    const { error } = await authClient.organization.removeTeamMember({ teamId: team.id, userId })
    if (error) toast.error(describeAuthError(error))
    else toast.success(oneFinalStop(m.teams_member_removed({ name: nameOf(userId), team: team.name })))
    await refresh.activeOrganization()
  }
  const removeTeam = async () => {
    const { error } = await authClient.organization.removeTeam({ teamId: team.id })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.teams_deleted({ name: team.name }))
    await refresh.activeOrganization()
  }

  return (
    <li className="rounded-xl border p-4" data-testid="team-card" aria-label={team.name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {renaming ? (
          <RenameTeam team={team} onDone={() => setRenaming(false)} />
        ) : (
          <h3 className="font-medium">{team.name}</h3>
        )}
        <div className="flex gap-1">
          {canRename && !renaming ? (
            <Button
              variant="ghost"
              size="icon"
              aria-label={m.teams_rename_named({ name: team.name })}
              onClick={() => setRenaming(true)}
            >
              <PencilIcon aria-hidden />
            </Button>
          ) : null}
          {canDelete ? (
            <AlertDialog>
              <AlertDialogTrigger asChild>
                <Button variant="ghost" size="icon" aria-label={m.teams_delete_named({ name: team.name })}>
                  <Trash2Icon aria-hidden />
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogTitle>{m.teams_delete_named({ name: team.name })}</AlertDialogTitle>
                <AlertDialogDescription>{m.teams_delete_body()}</AlertDialogDescription>
                <AlertDialogFooter>
                  <AlertDialogCancel>{m.cancel()}</AlertDialogCancel>
                  <Button variant="destructive" onClick={removeTeam}>
                    {m.teams_delete()}
                  </Button>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          ) : null}
        </div>
      </div>
      {teamMembers.isError ? (
        <p className="mt-2 text-sm text-muted-foreground">{describeError(teamMembers.error)}</p>
      ) : teamMembers.isPending ? (
        <p className="mt-2 text-sm text-muted-foreground">{m.loading()}</p>
      ) : teamMembers.data.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">{m.teams_no_members()}</p>
      ) : (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label={m.teams_members_of({ team: team.name })}>
          {teamMembers.data.map((entry) => (
            <li key={entry.userId} className="flex items-center gap-1.5 rounded-full border py-0.5 pr-1 pl-1 text-sm">
              <PersonAvatar
                person={{
                  name: nameOf(entry.userId),
                  image: members.find((member) => member.userId === entry.userId)?.user.image,
                }}
                size="xs"
              />
              <span className={canRemove ? undefined : 'pr-2'}>{nameOf(entry.userId)}</span>
              {canRemove ? (
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-6"
                  aria-label={m.teams_remove_member({ name: nameOf(entry.userId), team: team.name })}
                  onClick={() => remove(entry.userId)}
                >
                  <UserMinusIcon aria-hidden />
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canAdd && candidates.length > 0 ? (
        // A fresh form whenever who can be added changes, so the choice is always one of them.
        <AddTeamMember key={candidates.map((member) => member.userId).join()} team={team} candidates={candidates} />
      ) : null}
    </li>
  )
}
