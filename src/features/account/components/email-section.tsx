import { useRouterState } from '@tanstack/react-router'
import { useState } from 'react'
import { toast } from 'sonner'
import { FormNotice } from '#/components/form-notice'
import { Button } from '#/components/ui/button'
import { emailField } from '#/lib/account-rules'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import { sendWith, useAppForm } from '#/lib/form'
import type { SessionUser } from '#/lib/session-user'
import { z } from '#/lib/zod'
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
  const [sentTo, setSentTo] = useState<string | null>(null)
  const outcome = useLinkOutcome()
  const schema = changeEmailSchema(user.email)
  const form = useAppForm({
    defaultValues: { newEmail: '' },
    validators: { onDynamic: schema },
    onSubmit: async ({ value, formApi }) => {
      const { newEmail } = schema.parse(value)
      const { error } = await authClient.changeEmail({
        newEmail,
        callbackURL: `${localizeHref('/console/account')}?${returnMarker}=done`,
      })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      formApi.reset()
      setSentTo(newEmail)
      await refresh.session()
    },
  })

  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
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
      <form.AppField name="newEmail">
        {(field) => <field.TextField label={m.account_email_change_label()} type="email" autoComplete="email" />}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button type="submit" className="w-fit" disabled={submitting}>
            {submitting ? m.email_signin_sending() : m.account_email_change_submit()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}
