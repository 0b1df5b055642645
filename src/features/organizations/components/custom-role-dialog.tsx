import { useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { organizationLimits } from '#/features/organizations/organization-names'
import { type Resource, statements } from '#/lib/access-control'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useConsoleSession } from '#/lib/console-session'
import { sendWith, useAppForm } from '#/lib/form'
import { m } from '#/paraglide/messages'
import type { CustomRole } from '../organization-queries'
import { customRoleSchema } from '../schemas'
import { actionLabel, resourceLabels } from './permission-labels'
import { showAuthFieldError } from './show-auth-field-error'

const resources = Object.keys(statements) as Resource[]

/** The key of one checkbox of the picker, as the form holds the ticked ones. */
const permissionKey = (resource: string, action: string) => `${resource}:${action}`

function permissionKeys(permission: Record<string, string[]>): string[] {
  return Object.entries(permission).flatMap(([resource, actions]) =>
    actions.map((action) => permissionKey(resource, action)),
  )
}

/** The ticked `resource:action` keys, grouped back by resource as Better Auth stores them. */
function permissionOf(keys: string[]): Record<string, string[]> {
  const permission: Record<string, string[]> = {}
  for (const key of keys) {
    const [resource, action] = key.split(':')
    if (!resource || !action) continue
    permission[resource] = [...(permission[resource] ?? []), action]
  }
  return permission
}

/** Creates a custom role, or edits the permissions of one (`role` given), with a picker of every resource and action. */
export function CustomRoleDialog({ role, onClose }: { role?: CustomRole; onClose: () => void }) {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const [failure, setFailure] = useState<string | null>(null)
  const form = useAppForm({
    // An existing role keeps its name, which passed these same rules when the role was created.
    defaultValues: { role: role?.role ?? '', permission: permissionKeys(role?.permission ?? {}) },
    validators: { onDynamic: customRoleSchema },
    onSubmit: async ({ value, formApi }) => {
      const { role: name, permission: ticked } = customRoleSchema.parse(value)
      const permission = permissionOf(ticked)
      setFailure(null)
      const { error } = role
        ? await authClient.organization.updateRole({
            roleName: role.role,
            organizationId: session.organization.id,
            data: { permission },
          })
        : await authClient.organization.createRole({
            role: name,
            permission,
            organizationId: session.organization.id,
          })
      if (error) {
        const shownByName = !role && showAuthFieldError(formApi, error, { ROLE_NAME_IS_ALREADY_TAKEN: 'role' })
        if (!shownByName) setFailure(describeAuthError(error))
        return
      }
      onClose()
      toast.success(role ? m.roles_updated({ role: name }) : m.roles_created({ role: name }))
      await refresh.activeOrganization()
    },
  })

  const title = role ? m.roles_edit_named({ role: role.role }) : m.roles_create()
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-2xl">
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{m.roles_dialog_description()}</DialogDescription>
        <form noValidate aria-label={title} className="grid gap-4" onSubmit={sendWith(form)}>
          {role ? null : (
            <form.AppField name="role">
              {(field) => (
                <field.TextField
                  label={m.roles_name_label()}
                  maxLength={organizationLimits.roleNameMax}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="editor"
                />
              )}
            </form.AppField>
          )}
          <form.Field name="permission">
            {(field) => (
              <div className="grid gap-3 sm:grid-cols-2">
                {resources.map((resource) => (
                  <fieldset key={resource} className="rounded-lg border p-3">
                    <legend className="px-1 text-sm font-medium">{resourceLabels[resource]()}</legend>
                    <div className="grid gap-1.5">
                      {statements[resource].map((action) => {
                        const key = permissionKey(resource, action)
                        // Nobody can hand out more than they have (the server refuses it too); what the role already
                        // grants beyond that stays in the form, for the server to judge.
                        const beyondOwn = !session.permissions[resource].includes(action)
                        return (
                          <label key={action} className="flex items-center gap-2 text-sm has-disabled:opacity-60">
                            <input
                              type="checkbox"
                              name="permission"
                              value={key}
                              checked={field.state.value.includes(key)}
                              disabled={beyondOwn}
                              onChange={(event) =>
                                field.handleChange((keys) =>
                                  event.target.checked ? [...keys, key] : keys.filter((other) => other !== key),
                                )
                              }
                              onBlur={field.handleBlur}
                              className="size-4 accent-primary"
                            />
                            {actionLabel(action)}
                          </label>
                        )
                      })}
                    </div>
                  </fieldset>
                ))}
              </div>
            )}
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
