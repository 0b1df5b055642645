import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { parseRoleList } from '#/lib/access-control'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useConsoleSession } from '#/lib/console-session'
import { roleLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'
import { type OrganizationMember, useAssignableRoles } from '../organization-queries'

/**
 * Picks a member's roles: the built-in ones and the organization's own. A member may hold several; a permission is
 * granted when any of them grants it. Only an owner can give or take the owner role (the server says so too).
 */
export function MemberRoleDialog({ member, onClose }: { member: OrganizationMember; onClose: () => void }) {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const roles = useAssignableRoles()
  const [chosen, setChosen] = useState(() => new Set(parseRoleList(member.role)))
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const callerIsOwner = session.member.roles.includes('owner')

  const toggle = (role: string, on: boolean) => {
    const next = new Set(chosen)
    if (on) next.add(role)
    else next.delete(role)
    setChosen(next)
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (chosen.size === 0) {
      setFailure(m.members_role_required())
      return
    }
    setPending(true)
    setFailure(null)
    const { error } = await authClient.organization.updateMemberRole({
      memberId: member.id,
      role: [...chosen],
      organizationId: session.organization.id,
    })
    setPending(false)
    if (error) {
      setFailure(describeAuthError(error))
      return
    }
    onClose()
    toast.success(m.members_role_changed({ name: member.user.name }))
    await refresh.activeMember()
  }

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogTitle>{m.members_role_title({ name: member.user.name })}</DialogTitle>
        <DialogDescription>{m.members_role_description()}</DialogDescription>
        <form onSubmit={submit} noValidate aria-label={m.members_change_role()} className="grid gap-4">
          <fieldset className="grid gap-2">
            <legend className="sr-only">{m.members_roles_legend()}</legend>
            {roles.map((role) => {
              const ownerLocked = role === 'owner' && !callerIsOwner
              return (
                <label key={role} className="flex items-center gap-2 text-sm has-disabled:opacity-60">
                  <input
                    type="checkbox"
                    name="role"
                    value={role}
                    checked={chosen.has(role)}
                    disabled={ownerLocked}
                    onChange={(event) => toggle(role, event.target.checked)}
                    className="size-4 accent-primary"
                  />
                  {roleLabel(role)}
                </label>
              )
            })}
          </fieldset>
          <FormNotice>{failure}</FormNotice>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onClose}>
              {m.cancel()}
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? m.saving() : m.save()}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
