import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { organizationFormSchema } from '#/lib/organization-rules'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { OrganizationFields, readOrganizationFields } from './organization-fields'

/** Creates an organization the user owns and makes it the active one. */
export function CreateOrganizationDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const refresh = useAuthRefresh()
  const { errors, validate } = useFieldErrors(organizationFormSchema)
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const values = validate(readOrganizationFields(new FormData(event.currentTarget)))
    if (!values) return
    setPending(true)
    setFailure(null)
    const { error } = await authClient.organization.create({
      name: values.name,
      slug: values.slug,
      ...(values.logo ? { logo: values.logo } : {}),
    })
    setPending(false)
    if (error) {
      setFailure(describeAuthError(error))
      return
    }
    onOpenChange(false)
    await refresh.organizations()
    toast.success(m.org_created({ name: values.name }))
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>{m.org_create()}</DialogTitle>
        <DialogDescription>{m.org_create_description()}</DialogDescription>
        <form method="post" onSubmit={submit} noValidate aria-label={m.org_create()} className="grid gap-4">
          <OrganizationFields errors={errors} />
          <FormNotice>{failure}</FormNotice>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {m.cancel()}
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? m.org_creating() : m.org_create_submit()}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
