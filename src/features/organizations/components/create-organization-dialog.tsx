import { useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { sendWith, useAppForm } from '#/lib/form'
import { m } from '#/paraglide/messages'
import { organizationFormSchema } from '../organization-rules'
import { OrganizationFields, organizationFieldOfCode, organizationFormOptions } from './organization-fields'
import { showAuthFieldError } from './show-auth-field-error'

// Inside the dialog's content, so that every opening starts from an empty form.
function CreateOrganizationForm({ onClose }: { onClose: () => void }) {
  const refresh = useAuthRefresh()
  const [failure, setFailure] = useState<string | null>(null)
  const form = useAppForm({
    ...organizationFormOptions,
    onSubmit: async ({ value, formApi }) => {
      const values = organizationFormSchema.parse(value)
      setFailure(null)
      const { error } = await authClient.organization.create({
        name: values.name,
        slug: values.slug,
      })
      if (error) {
        if (!showAuthFieldError(formApi, error, organizationFieldOfCode)) setFailure(describeAuthError(error))
        return
      }
      onClose()
      // The new organization is the active one now.
      await refresh.organizationSwitched()
      toast.success(m.org_created({ name: values.name }))
    },
  })

  return (
    <form method="post" noValidate aria-label={m.org_create()} className="grid gap-4" onSubmit={sendWith(form)}>
      <OrganizationFields form={form} slugFollowsName />
      <FormNotice>{failure}</FormNotice>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose}>
          {m.cancel()}
        </Button>
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.org_creating()}>{m.org_create_submit()}</form.SubmitButton>
        </form.AppForm>
      </div>
    </form>
  )
}

/** Creates an organization the user owns and makes it the active one. */
export function CreateOrganizationDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>{m.org_create()}</DialogTitle>
        <DialogDescription>{m.org_create_description()}</DialogDescription>
        <CreateOrganizationForm onClose={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  )
}
