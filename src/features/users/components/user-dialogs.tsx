import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import type { FormEvent, ReactNode } from 'react'
import { toast } from 'sonner'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { describeError } from '#/lib/errors'
import { sendWith, showServerFieldErrors, useAppForm } from '#/lib/form'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import {
  type BanDuration,
  banDurations,
  banUserInput,
  type CreateUserValues,
  createUserInput,
  setPasswordInput,
} from '../schemas'

/** A dialog around one form: title, a line of context, the fields, then cancel and submit. */
function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  onSubmit,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description: string
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  children: ReactNode
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        <form aria-label={title} noValidate className="grid gap-4" onSubmit={onSubmit}>
          {children}
        </form>
      </DialogContent>
    </Dialog>
  )
}

function DialogButtons({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button type="button" variant="outline" onClick={onCancel}>
        {m.users_cancel()}
      </Button>
      {children}
    </div>
  )
}

const emptyUser: CreateUserValues = { name: '', email: '', role: 'user', password: '' }

export function CreateUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const create = useMutation(trpc.users.create.mutationOptions())
  const form = useAppForm({
    defaultValues: emptyUser,
    validators: { onDynamic: createUserInput },
    onSubmit: async ({ value, formApi }) => {
      try {
        const { id } = await create.mutateAsync(value)
        toast.success(
          value.password ? m.users_created({ name: value.name }) : m.users_created_invited({ email: value.email }),
        )
        onOpenChange(false)
        formApi.reset(emptyUser)
        await queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() })
        await navigate({ to: '/console/users/$userId', params: { userId: id } })
      } catch (error) {
        if (!showServerFieldErrors(formApi, error, ['name', 'email', 'role', 'password']))
          toast.error(describeError(error))
      }
    },
  })
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={m.users_create_title()}
      description={m.users_create_description()}
      onSubmit={sendWith(form)}
    >
      <form.AppField name="name">
        {(field) => <field.TextField label={m.users_field_name()} autoComplete="off" />}
      </form.AppField>
      <form.AppField name="email">
        {(field) => <field.TextField label={m.users_field_email()} type="email" autoComplete="off" />}
      </form.AppField>
      <form.AppField name="role">
        {(field) => (
          <field.SelectField label={m.users_field_role()}>
            <option value="user">{m.users_role_user()}</option>
            <option value="admin">{m.users_role_admin()}</option>
          </field.SelectField>
        )}
      </form.AppField>
      <form.AppField name="password">
        {(field) => (
          <field.TextField
            label={m.users_field_password_optional()}
            hint={m.users_field_password_hint()}
            type="password"
            autoComplete="new-password"
          />
        )}
      </form.AppField>
      <DialogButtons onCancel={() => onOpenChange(false)}>
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.users_saving()}>{m.users_create_submit()}</form.SubmitButton>
        </form.AppForm>
      </DialogButtons>
    </FormDialog>
  )
}

const banDurationLabels: Record<BanDuration, () => string> = {
  '1h': m.users_ban_1h,
  '1d': m.users_ban_1d,
  '7d': m.users_ban_7d,
  '30d': m.users_ban_30d,
  forever: m.users_ban_forever,
}

export function BanUserDialog({
  user,
  open,
  onOpenChange,
  onDone,
}: {
  user: { id: string; name: string }
  open: boolean
  onOpenChange: (open: boolean) => void
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const ban = useMutation(trpc.users.ban.mutationOptions())
  const schema = banUserInput.omit({ userId: true })
  const form = useAppForm({
    defaultValues: { reason: '', duration: 'forever' as BanDuration },
    validators: { onDynamic: schema },
    onSubmit: async ({ value, formApi }) => {
      try {
        await ban.mutateAsync({ userId: user.id, ...value })
        toast.success(m.users_banned_toast({ name: user.name }))
        onOpenChange(false)
        formApi.reset()
        await onDone()
      } catch (error) {
        if (!showServerFieldErrors(formApi, error, ['reason', 'duration'])) toast.error(describeError(error))
      }
    },
  })
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={m.users_ban_title({ name: user.name })}
      description={m.users_ban_description()}
      onSubmit={sendWith(form)}
    >
      <form.AppField name="reason">
        {(field) => <field.TextAreaField label={m.users_ban_reason()} hint={m.users_ban_reason_hint()} rows={3} />}
      </form.AppField>
      <form.AppField name="duration">
        {(field) => (
          <field.SelectField label={m.users_ban_duration()}>
            {banDurations.map((duration) => (
              <option key={duration} value={duration}>
                {banDurationLabels[duration]()}
              </option>
            ))}
          </field.SelectField>
        )}
      </form.AppField>
      <DialogButtons onCancel={() => onOpenChange(false)}>
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.users_saving()}>{m.users_ban_submit()}</form.SubmitButton>
        </form.AppForm>
      </DialogButtons>
    </FormDialog>
  )
}

export function SetPasswordDialog({
  user,
  open,
  onOpenChange,
  onDone,
}: {
  user: { id: string; name: string }
  open: boolean
  onOpenChange: (open: boolean) => void
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const setPassword = useMutation(trpc.users.setPassword.mutationOptions())
  const form = useAppForm({
    defaultValues: { newPassword: '' },
    validators: { onDynamic: setPasswordInput.omit({ userId: true }) },
    onSubmit: async ({ value, formApi }) => {
      try {
        await setPassword.mutateAsync({ userId: user.id, ...value })
        toast.success(m.users_password_set_toast({ name: user.name }))
        onOpenChange(false)
        formApi.reset()
        await onDone()
      } catch (error) {
        if (!showServerFieldErrors(formApi, error, ['newPassword'])) toast.error(describeError(error))
      }
    },
  })
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={m.users_password_title({ name: user.name })}
      description={m.users_password_description()}
      onSubmit={sendWith(form)}
    >
      <form.AppField name="newPassword">
        {(field) => (
          <field.TextField label={m.users_field_new_password()} type="password" autoComplete="new-password" />
        )}
      </form.AppField>
      <DialogButtons onCancel={() => onOpenChange(false)}>
        <form.AppForm>
          <form.SubmitButton pendingLabel={m.users_saving()}>{m.users_password_submit()}</form.SubmitButton>
        </form.AppForm>
      </DialogButtons>
    </FormDialog>
  )
}

/** Asks before an account is deleted for good, then returns to the list of users. */
export function DeleteUserDialog({
  user,
  open,
  onOpenChange,
  onDone,
}: {
  user: { id: string; name: string }
  open: boolean
  onOpenChange: (open: boolean) => void
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const navigate = useNavigate()
  const remove = useMutation(
    trpc.users.remove.mutationOptions({ onError: (error) => toast.error(describeError(error)) }),
  )
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <AlertDialogTitle>{m.users_delete_title({ name: user.name })}</AlertDialogTitle>
        <AlertDialogDescription>{m.users_delete_body()}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.users_cancel()}</AlertDialogCancel>
          <AlertDialogAction
            className="bg-destructive text-white hover:bg-destructive/90"
            onClick={async () => {
              await remove.mutateAsync({ userId: user.id })
              toast.success(m.users_deleted_toast({ name: user.name }))
              await onDone()
              await navigate({ to: '/console/users' })
            }}
          >
            {m.users_delete_confirm()}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
