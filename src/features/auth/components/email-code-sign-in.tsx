import { KeyRound } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { sendWith, useAppForm } from '#/lib/form'
import { m } from '#/paraglide/messages'
import { goAfterSignIn } from '../after-sign-in'
import { emailCodeSchema, emailSignInMinutes } from '../email-sign-in'
import { EmailAddressForm } from './email-address-form'
import { staySubmitting } from './stay-submitting'

type Step = { name: 'closed' } | { name: 'asking' } | { name: 'code'; email: string }

/** "Email me a code": asks for the address, sends a 6-digit code, then signs in with it. */
export function EmailCodeSignIn({ redirect }: { redirect: string | undefined }) {
  const [step, setStep] = useState<Step>({ name: 'closed' })

  const sendCode = async (email: string): Promise<boolean> => {
    const { error } = await authClient.emailOtp.sendVerificationOtp({ email, type: 'sign-in' })
    if (error) {
      toast.error(describeAuthError(error))
      return false
    }
    return true
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
        onSend={async (email) => {
          if (await sendCode(email)) setStep({ name: 'code', email })
        }}
        onCancel={() => setStep({ name: 'closed' })}
      />
    )
  }
  return (
    <CodeForm
      email={step.email}
      redirect={redirect}
      sendCode={sendCode}
      onAnotherEmail={() => setStep({ name: 'asking' })}
    />
  )
}

/** The second step: the code from the email, a way to have it sent again, and a way back to another address. */
function CodeForm({
  email,
  redirect,
  sendCode,
  onAnotherEmail,
}: {
  email: string
  redirect: string | undefined
  sendCode: (email: string) => Promise<boolean>
  onAnotherEmail: () => void
}) {
  const [resending, setResending] = useState(false)
  const form = useAppForm({
    defaultValues: { code: '' },
    validators: { onDynamic: emailCodeSchema },
    onSubmit: async ({ value }) => {
      const { error } = await authClient.signIn.emailOtp({ email, otp: emailCodeSchema.parse(value).code })
      if (error) {
        toast.error(describeAuthError(error))
        return
      }
      goAfterSignIn(redirect)
      await staySubmitting()
    },
  })

  const resend = async () => {
    setResending(true)
    const sent = await sendCode(email)
    setResending(false)
    if (sent) toast.success(m.email_signin_code_resent())
  }

  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="grid gap-3 rounded-lg border p-4"
      aria-label={m.email_signin_code_submit()}
    >
      <p role="status" className="text-sm">
        {m.email_signin_code_sent({ email, minutes: String(emailSignInMinutes) })}
      </p>
      <form.AppField name="code">
        {(field) => (
          <field.TextField
            label={m.email_signin_code_label()}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={12}
          />
        )}
      </form.AppField>
      {/* Signing in and sending a new code wait for each other: a new code replaces the one being tried. */}
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <>
            <Button type="submit" disabled={submitting || resending}>
              {submitting ? m.auth_signing_in() : m.email_signin_code_submit()}
            </Button>
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" size="sm" disabled={submitting || resending} onClick={resend}>
                {m.email_signin_code_resend()}
              </Button>
              <Button type="button" variant="ghost" size="sm" onClick={onAnotherEmail}>
                {m.email_signin_use_another_email()}
              </Button>
            </div>
          </>
        )}
      </form.Subscribe>
    </form>
  )
}
