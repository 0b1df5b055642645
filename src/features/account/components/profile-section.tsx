import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { AvatarPicker } from '#/features/uploads'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { sendWith, useAppForm } from '#/lib/form'
import type { SessionUser } from '#/lib/session-user'
import { m } from '#/paraglide/messages'
import { profileSchema } from '../schemas'

export function ProfileSection({ user }: { user: SessionUser }) {
  const refresh = useAuthRefresh()
  // Follows the session while untouched; once saved, the typed values stay in the form.
  const form = useAppForm({
    defaultValues: { name: user.name, username: user.username ?? '' },
    validators: { onDynamic: profileSchema },
    onSubmit: async ({ value }) => {
      const values = profileSchema.parse(value)
      const { error } = await authClient.updateUser({
        name: values.name,
        ...(values.username && values.username !== user.username ? { username: values.username } : {}),
      })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      toast.success(m.account_saved())
      await refresh.session() // update-user: the console reads the user again
    },
  })

  return (
    <>
      <AvatarPicker user={user} />
      <form
        method="post"
        onSubmit={sendWith(form)}
        noValidate
        className="mt-4 grid gap-4 sm:max-w-md"
        aria-label={m.account_profile()}
      >
        <form.AppField name="name">{(field) => <field.TextField label={m.auth_name_label()} />}</form.AppField>
        <form.AppField name="username">
          {(field) => <field.TextField label={m.auth_username_optional()} autoComplete="username" />}
        </form.AppField>
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(submitting) => (
            <Button type="submit" className="w-fit" disabled={submitting}>
              {m.account_save()}
            </Button>
          )}
        </form.Subscribe>
      </form>
    </>
  )
}
