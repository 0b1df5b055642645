import { useId, useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { grantedPermissions, mayGrant, type Permissions, parseRoleList } from '#/lib/access-control'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useConsoleSession } from '#/lib/console-session'
import { translateMessage } from '#/lib/errors'
import { sendWith, useAppForm } from '#/lib/form'
import { roleLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'
import { type MemberRow, useAssignableRoles, useCustomRoles } from '../organization-queries'
import { memberRolesSchema } from '../schemas'

/**
 * Picks a member's roles: the built-in ones and the organization's own. A member may hold several; a permission is
 * granted when any of them grants it. A role carrying a permission the caller lacks (the owner role, for an admin)
 * is shown but cannot be chosen; the server refuses it too.
 */
export function MemberRoleDialog({
  member,
  onClose,
}: {
  member: Pick<MemberRow, 'id' | 'role' | 'name'>
  onClose: () => void
}) {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const roles = useAssignableRoles()
  const errorId = useId()
  const [failure, setFailure] = useState<string | null>(null)
  const { data: customRoles = [] } = useCustomRoles()
  const customPermissions = Object.fromEntries(customRoles.map((role) => [role.role, role.permission as Permissions]))
  // Nobody gives what they do not hold: a role is offered only when one of the caller's own roles covers it.
  const mayGive = (role: string) => mayGrant(session.rolePermissions, grantedPermissions([role], customPermissions))
  const form = useAppForm({
    defaultValues: { role: [...new Set(parseRoleList(member.role))] },
    validators: { onDynamic: memberRolesSchema },
    onSubmit: async ({ value }) => {
      setFailure(null)
      const { error } = await authClient.organization.updateMemberRole({
        memberId: member.id,
        role: value.role,
        organizationId: session.organization.id,
      })
      if (error) {
        setFailure(describeAuthError(error))
        return
      }
      onClose()
      toast.success(m.members_role_changed({ name: member.name }))
      await refresh.activeMember()
    },
  })

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogTitle>{m.members_role_title({ name: member.name })}</DialogTitle>
        <DialogDescription>{m.members_role_description()}</DialogDescription>
        <form noValidate aria-label={m.members_change_role()} className="grid gap-4" onSubmit={sendWith(form)}>
          <form.Field name="role">
            {(field) => {
              const problem = field.state.meta.errors[0]?.message
              const error = problem ? translateMessage(problem) : undefined
              return (
                <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
                  <legend className="sr-only">{m.members_roles_legend()}</legend>
                  {roles.map((role) => {
                    const locked = !mayGive(role)
                    return (
                      <label key={role} className="flex items-center gap-2 text-sm has-disabled:opacity-60">
                        <input
                          type="checkbox"
                          name="role"
                          value={role}
                          checked={field.state.value.includes(role)}
                          disabled={locked}
                          onChange={(event) =>
                            field.handleChange((chosen) =>
                              event.target.checked ? [...chosen, role] : chosen.filter((other) => other !== role),
                            )
                          }
                          onBlur={field.handleBlur}
                          className="size-4 accent-primary"
                        />
                        {roleLabel(role)}
                        {locked ? (
                          <span className="text-xs text-muted-foreground">{m.members_role_beyond_yours()}</span>
                        ) : null}
                      </label>
                    )
                  })}
                  {error ? (
                    <p id={errorId} className="text-sm text-destructive" data-testid="error-role">
                      {error}
                    </p>
                  ) : null}
                </fieldset>
              )
            }}
          </form.Field>
          <FormNotice>{failure}</FormNotice>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onClose}>
              {m.cancel()}
            </Button>
            <form.AppForm>
              <form.SubmitButton pendingLabel={m.saving()}>{m.save()}</form.SubmitButton>
            </form.AppForm>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
