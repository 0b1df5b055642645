import { PencilIcon, Trash2Icon, UserMinusIcon } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { toast } from 'sonner'
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
import { Input } from '#/components/ui/input'
import { NativeSelect } from '#/components/ui/select'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan } from '#/lib/console-session'
import { describeError } from '#/lib/errors'
import { organizationLimits } from '#/lib/organization-rules'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { type OrganizationMember, useTeamMembers } from '../organization-queries'
import { teamSchema } from '../schemas'

interface Team {
  id: string
  name: string
}

function RenameTeam({ team, onDone }: { team: Team; onDone: () => void }) {
  const refresh = useAuthRefresh()
  const { errors, validate } = useFieldErrors(teamSchema)
  const id = useId()
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = validate({ name: String(new FormData(event.currentTarget).get('name') ?? '') })
    if (!values) return
    const { error } = await authClient.organization.updateTeam({ teamId: team.id, data: { name: values.name } })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.teams_renamed({ name: values.name }))
    onDone()
    await refresh.activeOrganization()
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={m.teams_rename_named({ name: team.name })}
      className="flex flex-wrap gap-2"
    >
      <label htmlFor={id} className="sr-only">
        {m.teams_name_label()}
      </label>
      <Input
        id={id}
        name="name"
        defaultValue={team.name}
        maxLength={organizationLimits.teamNameMax}
        aria-invalid={errors.name ? true : undefined}
        className="max-w-xs"
      />
      <Button type="submit" size="sm">
        {m.save()}
      </Button>
      <Button type="button" size="sm" variant="outline" onClick={onDone}>
        {m.cancel()}
      </Button>
      {errors.name ? <p className="w-full text-sm text-destructive">{errors.name}</p> : null}
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
  const selectId = useId()
  const teamMembers = useTeamMembers(team.id)
  const inTeam = new Set((teamMembers.data ?? []).map((entry) => entry.userId))
  const nameOf = (userId: string) => members.find((member) => member.userId === userId)?.user.name ?? userId
  const candidates = members.filter((member) => !inTeam.has(member.userId))

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const userId = String(new FormData(event.currentTarget).get('userId') ?? '')
    if (!userId) return
    const { error } = await authClient.organization.addTeamMember({ teamId: team.id, userId })
    if (error) toast.error(describeAuthError(error))
    else toast.success(m.teams_member_added({ name: nameOf(userId), team: team.name }))
    await refresh.activeOrganization()
  }
  const remove = async (userId: string) => {
    const { error } = await authClient.organization.removeTeamMember({ teamId: team.id, userId })
    if (error) toast.error(describeAuthError(error))
    else toast.success(m.teams_member_removed({ name: nameOf(userId), team: team.name }))
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
            <li key={entry.userId} className="flex items-center gap-1 rounded-full border py-0.5 pr-1 pl-3 text-sm">
              {nameOf(entry.userId)}
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
        <form
          onSubmit={add}
          className="mt-3 flex flex-wrap gap-2"
          aria-label={m.teams_add_member_to({ team: team.name })}
        >
          <label htmlFor={selectId} className="sr-only">
            {m.teams_add_member_label()}
          </label>
          <NativeSelect id={selectId} name="userId" className="max-w-xs">
            {candidates.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.user.name} ({member.user.email})
              </option>
            ))}
          </NativeSelect>
          <Button type="submit" size="sm" variant="outline">
            {m.teams_add_member()}
          </Button>
        </form>
      ) : null}
    </li>
  )
}
