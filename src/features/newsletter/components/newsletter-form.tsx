import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { describeError, fieldErrorsOf, translateMessage } from '#/lib/errors'
import { getLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'

export function NewsletterForm() {
  const trpc = useTRPC()
  const emailId = useId()
  const errorId = useId()
  const [email, setEmail] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const subscribe = useMutation(
    trpc.newsletter.subscribe.mutationOptions({
      onSuccess: () => {
        setEmail('')
        toast.success(m.newsletter_success())
      },
      onError: (error) => {
        const serverFieldError = fieldErrorsOf(error).email?.[0]
        if (serverFieldError) setFieldError(translateMessage(serverFieldError))
        else toast.error(describeError(error))
      },
    }),
  )

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // The same schema the server applies (the server still checks everything), loaded on the first submit: zod is
    // not part of the landing page's first download.
    const { newsletterSubscription } = await import('../schemas')
    const parsed = newsletterSubscription.safeParse({ email, locale: getLocale() })
    if (!parsed.success) {
      setFieldError(translateMessage(parsed.error.issues[0]?.message ?? 'validation_email_invalid'))
      return
    }
    setFieldError(null)
    subscribe.mutate(parsed.data)
  }

  return (
    <form method="post" onSubmit={submit} noValidate className="max-w-sm">
      <label htmlFor={emailId} className="text-sm font-semibold">
        {m.newsletter_title()}
      </label>
      <p className="mt-1 text-sm text-muted-foreground">{m.newsletter_description()}</p>
      <div className="mt-3 flex gap-2">
        <input
          id={emailId}
          type="email"
          name="email"
          autoComplete="email"
          placeholder={m.newsletter_email_placeholder()}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? errorId : undefined}
          className="h-9 min-w-0 flex-1 rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-[invalid=true]:border-destructive"
        />
        <Button type="submit" disabled={subscribe.isPending}>
          {subscribe.isPending ? m.newsletter_subscribing() : m.newsletter_submit()}
        </Button>
      </div>
      {fieldError ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-destructive">
          {fieldError}
        </p>
      ) : null}
    </form>
  )
}
