import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormField } from '#/components/form-field'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { type Resource, statements } from '#/lib/access-control'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useConsoleSession } from '#/lib/console-session'
import { organizationLimits } from '#/lib/organization-rules'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import type { CustomRole } from '../organization-queries'
import { customRoleSchema } from '../schemas'
import { actionLabel, resourceLabels } from './permission-labels'

const resources = Object.keys(statements) as Resource[]

/** The permissions ticked in the form: `resource:action` checkboxes, grouped back by resource. */
function readPermission(form: FormData): Record<string, string[]> {
  const permission: Record<string, string[]> = {}
  for (const value of form.getAll('permission')) {
    const [resource, action] = String(value).split(':')
    if (!resource || !action) continue
    permission[resource] = [...(permission[resource] ?? []), action]
  }
  return permission
}

/** Creates a custom role, or edits the permissions of one (`role` given), with a picker of every resource and action. */
export function CustomRoleDialog({ role, onClose }: { role?: CustomRole; onClose: () => void }) {
  const session = useConsoleSession()
  const refresh = useAuthRefresh()
  const { errors, validate } = useFieldErrors(customRoleSchema)
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const permission = readPermission(form)
    const values = role ? { role: role.role } : validate({ role: String(form.get('role') ?? '') })
    if (!values) return
    setPending(true)
    setFailure(null)
    const { error } = role
      ? await authClient.organization.updateRole({
          roleName: role.role,
          organizationId: session.organization.id,
          data: { permission },
        })
      : await authClient.organization.createRole({
          role: values.role,
          permission,
          organizationId: session.organization.id,
        })
    setPending(false)
    if (error) {
      setFailure(describeAuthError(error))
      return
    }
    onClose()
    toast.success(role ? m.roles_updated({ role: values.role }) : m.roles_created({ role: values.role }))
    await refresh.activeOrganization()
  }

  const title = role ? m.roles_edit_named({ role: role.role }) : m.roles_create()
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-2xl">
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{m.roles_dialog_description()}</DialogDescription>
        <form onSubmit={submit} noValidate aria-label={title} className="grid gap-4">
          {role ? null : (
            <FormField
              label={m.roles_name_label()}
              name="role"
              maxLength={organizationLimits.roleNameMax}
              autoComplete="off"
              spellCheck={false}
              placeholder="editor"
              error={errors.role}
            />
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            {resources.map((resource) => (
              <fieldset key={resource} className="rounded-lg border p-3">
                <legend className="px-1 text-sm font-medium">{resourceLabels[resource]()}</legend>
                <div className="grid gap-1.5">
                  {statements[resource].map((action) => {
                    const granted = role?.permission[resource]?.includes(action) ?? false
                    // Nobody can hand out more than they have (the server refuses it too).
                    const beyondOwn = !session.permissions[resource].includes(action)
                    return (
                      <label key={action} className="flex items-center gap-2 text-sm has-disabled:opacity-60">
                        <input
                          type="checkbox"
                          name="permission"
                          value={`${resource}:${action}`}
                          defaultChecked={granted}
                          disabled={beyondOwn}
                          className="size-4 accent-primary"
                        />
                        {/* A disabled box is not submitted: keep what the role already grants, for the server to judge. */}
                        {beyondOwn && granted ? (
                          <input type="hidden" name="permission" value={`${resource}:${action}`} />
                        ) : null}
                        {actionLabel(action)}
                      </label>
                    )
                  })}
                </div>
              </fieldset>
            ))}
          </div>
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
