import { KeyRound } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { FormField } from '#/components/form-field'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useFieldErrors } from '#/lib/use-field-errors'
import { m } from '#/paraglide/messages'
import { goAfterSignIn } from '../after-sign-in'
import { emailCodeSchema, emailSignInMinutes } from '../email-sign-in'
import { EmailAddressForm } from './email-address-form'

type Step = { name: 'closed' } | { name: 'asking' } | { name: 'code'; email: string }

/** "Email me a code": asks for the address, sends a 6-digit code, then signs in with it. */
export function EmailCodeSignIn({ redirect }: { redirect: string | undefined }) {
  const codeForm = useFieldErrors(emailCodeSchema)
  const [step, setStep] = useState<Step>({ name: 'closed' })
  const [pending, setPending] = useState(false)

  const sendCode = async (email: string): Promise<boolean> => {
    setPending(true)
    const { error } = await authClient.emailOtp.sendVerificationOtp({ email, type: 'sign-in' })
    setPending(false)
    if (error) {
      toast.error(describeAuthError(error))
      return false
    }
    return true
  }

  const resend = async (email: string) => {
    if (await sendCode(email)) toast.success(m.email_signin_code_resent())
  }

  const submitCode = async (event: FormEvent<HTMLFormElement>, email: string) => {
    event.preventDefault()
    const values = codeForm.validate({ code: String(new FormData(event.currentTarget).get('code') ?? '') })
    if (!values) return
    setPending(true)
    const { error } = await authClient.signIn.emailOtp({ email, otp: values.code })
    if (error) {
      setPending(false)
      toast.error(describeAuthError(error))
      return
    }
    goAfterSignIn(redirect)
  }

  if (step.name === 'closed') {
    return (
      <Button type="button" variant="outline" onClick={() => setStep({ name: 'asking' })}>
        <KeyRound aria-hidden="true" />
        {m.email_signin_code_button()}
      </Button>
    )
  }
  if (step.name === 'asking') {
    return (
      <EmailAddressForm
        fieldName="codeEmail"
        title={m.email_signin_code_button()}
        sendLabel={m.email_signin_code_send()}
        pending={pending}
        onSend={async (email) => {
          if (await sendCode(email)) setStep({ name: 'code', email })
        }}
        onCancel={() => setStep({ name: 'closed' })}
      />
    )
  }
  const { email } = step
  return (
    <form
      method="post"
      onSubmit={(event) => submitCode(event, email)}
      noValidate
      className="grid gap-3 rounded-lg border p-4"
      aria-label={m.email_signin_code_submit()}
    >
      <p role="status" className="text-sm">
        {m.email_signin_code_sent({ email, minutes: String(emailSignInMinutes) })}
      </p>
      <FormField
        label={m.email_signin_code_label()}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={12}
        error={codeForm.errors.code}
      />
      <Button type="submit" disabled={pending}>
        {pending ? m.auth_signing_in() : m.email_signin_code_submit()}
      </Button>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" disabled={pending} onClick={() => resend(email)}>
          {m.email_signin_code_resend()}
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={() => setStep({ name: 'asking' })}>
          {m.email_signin_use_another_email()}
        </Button>
      </div>
    </form>
  )
}
