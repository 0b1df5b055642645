import { useRouterState } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { z } from 'zod'
import { FormField } from '#/components/form-field'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { emailField } from '#/lib/account-rules'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import type { SessionUser } from '#/lib/session-user'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** `?emailChange=done` marks the return from the emailed link; Better Auth adds `error` when the link was dead. */
const returnMarker = 'emailChange'

const changeEmailSchema = (currentEmail: string) =>
  z.object({
    newEmail: emailField.refine((email) => email.toLowerCase() !== currentEmail.toLowerCase(), {
      error: () => m.account_email_change_same(),
    }),
  })

/** What the emailed link reported when it brought the user back here, if it did. */
function useLinkOutcome(): 'changed' | 'failed' | null {
  const search = useRouterState({ select: (state) => state.location.search as Record<string, unknown> })
  if (search[returnMarker] !== 'done') return null
  return search.error ? 'failed' : 'changed'
}

/**
 * Changing the email: Better Auth sends a link to the NEW address, and the address changes only when it is opened
 * (the link comes back here). Until then the account keeps the old one.
 */
export function EmailSection({ user }: { user: SessionUser }) {
  const refresh = useAuthRefresh()
  const { errors, validate } = useFieldErrors(changeEmailSchema(user.email))
  const [pending, setPending] = useState(false)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const outcome = useLinkOutcome()

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const formElement = event.currentTarget
    const values = validate({ newEmail: String(new FormData(formElement).get('newEmail') ?? '') })
    if (!values) return
    setPending(true)
    const { error } = await authClient.changeEmail({
      newEmail: values.newEmail,
      callbackURL: `${localizeHref('/console/account')}?${returnMarker}=done`,
    })
    setPending(false)
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    formElement.reset()
    setSentTo(values.newEmail)
    await refresh.session()
  }

  return (
    <form
      method="post"
      onSubmit={submit}
      noValidate
      className="mt-6 grid gap-4 sm:max-w-md"
      aria-label={m.account_email_change_title()}
    >
      {outcome === 'failed' ? <FormNotice>{m.account_email_change_link_invalid()}</FormNotice> : null}
      {outcome === 'changed' ? (
        <p role="status" className="text-sm" data-testid="email-change-done">
          {m.account_email_change_done({ email: user.email })}
        </p>
      ) : null}
      {sentTo ? (
        <p role="status" className="text-sm text-muted-foreground" data-testid="email-change-sent">
          {m.account_email_change_sent({ email: sentTo })}
        </p>
      ) : null}
      <FormField
        label={m.account_email_change_label()}
        name="newEmail"
        type="email"
        autoComplete="email"
        error={errors.newEmail}
      />
      <Button type="submit" className="w-fit" disabled={pending}>
        {pending ? m.email_signin_sending() : m.account_email_change_submit()}
      </Button>
    </form>
  )
}
