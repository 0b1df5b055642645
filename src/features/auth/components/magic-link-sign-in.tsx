import { Mail } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { m } from '#/paraglide/messages'
import { afterSignInPath } from '../after-sign-in'
import { emailSignInMinutes, magicLinkErrorPath } from '../email-sign-in'
import { EmailAddressForm } from './email-address-form'

type Step = { name: 'closed' } | { name: 'asking' } | { name: 'sent'; email: string }

/**
 * "Email me a sign-in link": asks for the address and sends a link that signs in and lands on the `redirect` target
 * (when it is a path on this site) or the console. A dead link lands on /{lang}/magic-link, which says so.
 */
export function MagicLinkSignIn({ redirect }: { redirect: string | undefined }) {
  const [step, setStep] = useState<Step>({ name: 'closed' })
  const [pending, setPending] = useState(false)

  const send = async (email: string) => {
    setPending(true)
    const { error } = await authClient.signIn.magicLink({
      email,
      callbackURL: afterSignInPath(redirect),
      errorCallbackURL: magicLinkErrorPath(redirect),
    })
    setPending(false)
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    setStep({ name: 'sent', email })
  }

  if (step.name === 'closed') {
    return (
      <Button type="button" variant="outline" onClick={() => setStep({ name: 'asking' })}>
        <Mail aria-hidden="true" />
        {m.email_signin_magic_link_button()}
      </Button>
    )
  }
  if (step.name === 'sent') {
    return (
      <div className="grid gap-3 rounded-lg border p-4" data-testid="magic-link-sent">
        <p role="status" className="text-sm">
          {m.email_signin_magic_link_sent({ email: step.email, minutes: String(emailSignInMinutes) })}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" disabled={pending} onClick={() => send(step.email)}>
            {m.email_signin_send_again()}
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setStep({ name: 'asking' })}>
            {m.email_signin_use_another_email()}
          </Button>
        </div>
      </div>
    )
  }
  return (
    <EmailAddressForm
      fieldName="magicLinkEmail"
      title={m.email_signin_magic_link_button()}
      sendLabel={m.email_signin_magic_link_send()}
      onSend={send}
      onCancel={() => setStep({ name: 'closed' })}
    />
  )
}
