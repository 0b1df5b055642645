import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormField } from '#/components/form-field'
import { FormNotice } from '#/components/form-notice'
import { PageHeader } from '#/components/page-header'
import { SettingsSection } from '#/components/settings-section'
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
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { currentIntlLocale } from '#/lib/i18n'
import { organizationFormSchema } from '#/lib/organization-rules'
import { rolesLabel } from '#/lib/role-labels'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { OrganizationAvatar } from './organization-avatar'
import { OrganizationFields, readOrganizationFields } from './organization-fields'

function DetailsForm() {
  const { organization } = useConsoleSession()
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
    const { error } = await authClient.organization.update({
      organizationId: organization.id,
      data: { name: values.name, slug: values.slug, logo: values.logo || null },
    })
    setPending(false)
    if (error) {
      setFailure(describeAuthError(error))
      return
    }
    await refresh.organizations()
    toast.success(m.org_saved())
  }

  return (
    <form method="post" onSubmit={submit} noValidate aria-label={m.org_details_title()} className="mt-4 grid gap-4">
      <OrganizationFields
        initial={{ name: organization.name, slug: organization.slug, logo: organization.logo ?? '' }}
        errors={errors}
      />
      <FormNotice>{failure}</FormNotice>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? m.saving() : m.save()}
        </Button>
      </div>
    </form>
  )
}

function LeaveOrganization() {
  const { organization } = useConsoleSession()
  const refresh = useAuthRefresh()
  const navigate = useNavigate()
  const leave = async () => {
    const { error } = await authClient.organization.leave({ organizationId: organization.id })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.org_left({ name: organization.name }))
    // The console moves the session to another organization (or a new personal workspace) on the next load.
    await refresh.organizationSwitched()
    await navigate({ to: '/console' })
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline">{m.org_leave()}</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{m.org_leave_confirm_title({ name: organization.name })}</AlertDialogTitle>
        <AlertDialogDescription>{m.org_leave_confirm_body()}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.cancel()}</AlertDialogCancel>
          <Button variant="destructive" onClick={leave}>
            {m.org_leave()}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** Deleting asks for the organization's name, typed out, so it is never one mistaken click. */
function DeleteOrganization() {
  const { organization } = useConsoleSession()
  const refresh = useAuthRefresh()
  const navigate = useNavigate()
  const [typed, setTyped] = useState('')
  const [pending, setPending] = useState(false)
  const matches = typed.trim() === organization.name.trim()

  const remove = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!matches) return
    setPending(true)
    const { error } = await authClient.organization.delete({ organizationId: organization.id })
    setPending(false)
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.org_deleted({ name: organization.name }))
    await refresh.organizations()
    await navigate({ to: '/console' })
  }

  return (
    <AlertDialog onOpenChange={() => setTyped('')}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">{m.org_delete()}</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{m.org_delete_confirm_title({ name: organization.name })}</AlertDialogTitle>
        <AlertDialogDescription>{m.org_delete_confirm_body()}</AlertDialogDescription>
        <form onSubmit={remove} className="grid gap-4" aria-label={m.org_delete()}>
          <FormField
            label={m.org_delete_type_name({ name: organization.name })}
            name="confirmName"
            value={typed}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
          <AlertDialogFooter>
            <AlertDialogCancel type="button">{m.cancel()}</AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={!matches || pending}>
              {m.org_delete_submit()}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** The active organization: its details (editable with `organization: update`), leaving it, and deleting it. */
export function OrganizationSettings() {
  const { organization, member } = useConsoleSession()
  const canUpdate = useCan({ organization: ['update'] })
  const canDelete = useCan({ organization: ['delete'] })
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  return (
    <div className="max-w-2xl">
      <PageHeader title={m.org_settings_title()} description={m.org_settings_description()} />
      <SettingsSection id="details" title={m.org_details_title()}>
        <div className="mt-4 flex items-center gap-4">
          <OrganizationAvatar organization={organization} />
          <dl className="grid gap-1 text-sm">
            <dt className="sr-only">{m.org_name_label()}</dt>
            <dd className="text-base font-medium" data-testid="organization-name">
              {organization.name}
            </dd>
            <dt className="sr-only">{m.org_slug_label()}</dt>
            <dd className="font-mono text-muted-foreground">{organization.slug}</dd>
            <dt className="sr-only">{m.org_your_role()}</dt>
            <dd data-testid="organization-role">
              {m.org_your_role_is({ role: rolesLabel(member.role) })} ·{' '}
              {m.org_created_on({ date: date.format(new Date(organization.createdAt)) })}
            </dd>
          </dl>
        </div>
        {canUpdate ? (
          <DetailsForm />
        ) : (
          <p className="mt-4 text-sm text-muted-foreground">{m.org_details_read_only()}</p>
        )}
      </SettingsSection>
      <SettingsSection id="leave" title={m.org_leave_title()} subtitle={m.org_leave_subtitle()}>
        <div className="mt-4">
          <LeaveOrganization />
        </div>
      </SettingsSection>
      {canDelete ? (
        <SettingsSection id="delete" title={m.org_delete_title()} subtitle={m.org_delete_subtitle()}>
          <div className="mt-4">
            <DeleteOrganization />
          </div>
        </SettingsSection>
      ) : null}
    </div>
  )
}
