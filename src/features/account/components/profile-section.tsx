import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormField } from '#/components/form-field'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import type { SessionUser } from '#/lib/session-user'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { profileSchema } from '../schemas'

export function ProfileSection({ user }: { user: SessionUser }) {
  const refresh = useAuthRefresh()
  const { errors, validate } = useFieldErrors(profileSchema)
  const [pending, setPending] = useState(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const values = validate({
      name: String(form.get('name') ?? ''),
      username: String(form.get('username') ?? ''),
      image: String(form.get('image') ?? ''),
    })
    if (!values) return
    setPending(true)
    const { error } = await authClient.updateUser({
      name: values.name,
      image: values.image || null,
      ...(values.username && values.username !== user.username ? { username: values.username } : {}),
    })
    setPending(false)
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.account_saved())
    await refresh.session() // update-user: the console reads the user again
  }

  return (
    <form
      method="post"
      onSubmit={submit}
      noValidate
      className="mt-6 grid gap-4 sm:max-w-md"
      aria-label={m.account_profile()}
    >
      <FormField label={m.auth_name_label()} name="name" defaultValue={user.name} error={errors.name} />
      <FormField
        label={m.auth_username_optional()}
        name="username"
        defaultValue={user.username ?? ''}
        autoComplete="username"
        error={errors.username}
      />
      <FormField
        label={m.account_image_label()}
        name="image"
        type="url"
        defaultValue={user.image ?? ''}
        error={errors.image}
      />
      <Button type="submit" className="w-fit" disabled={pending}>
        {m.account_save()}
      </Button>
    </form>
  )
}
