import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { type AuthClientError, describeAuthError } from '#/lib/auth-errors'
import { sendWith, useAppForm } from '#/lib/form'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import { authPageHref, goAfterSignIn } from '../after-sign-in'
import { backupCodeSchema, oneTimeCodeSchema } from '../two-factor'
import { staySubmitting } from './stay-submitting'

/** How the second factor is given: a code from the app, a backup code, or a code sent by email. */
type Method = 'totp' | 'backup' | 'email'

/** These mean the challenge itself is gone (used, expired, or given up after too many wrong codes). */
const challengeOverCodes = new Set(['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE'])

/** Shown instead of the form when no password sign-in is waiting for its second factor. */
export function NoTwoFactorChallenge({ redirect }: { redirect: string | undefined }) {
  return (
    <div className="grid gap-4" data-testid="twofa-no-challenge">
      <p role="alert">{m.twofa_no_challenge()}</p>
      <a className="text-sm text-primary hover:underline" href={authPageHref('/sign-in', redirect)}>
        {m.twofa_back_to_sign_in()}
      </a>
    </div>
  )
}

/** The second step of a password sign-in for a user with two-factor authentication on. */
export function TwoFactorChallenge({ redirect }: { redirect: string | undefined }) {
  const [method, setMethod] = useState<Method>('totp')
  const [challengeOver, setChallengeOver] = useState(false)
  const [sending, setSending] = useState(false)

  const failed = (error: AuthClientError) => {
    if (error.code && challengeOverCodes.has(error.code)) setChallengeOver(true)
    toast.error(describeAuthError(error))
  }

  const sendEmailCode = async () => {
    setSending(true)
    const { error } = await authClient.twoFactor.sendOtp()
    setSending(false)
    if (error) {
      failed(error)
      return
    }
    setMethod('email')
    toast.success(m.twofa_email_sent())
  }

  if (challengeOver) return <NoTwoFactorChallenge redirect={redirect} />
  return (
    <div className="grid gap-4">
      {/* A fresh form per method: a half-typed code or an error of one kind means nothing for another. */}
      <CodeForm key={method} method={method} onFailed={failed} onVerified={() => goAfterSignIn(redirect)} />
      <div className="grid justify-items-center gap-1 text-sm">
        <Button type="button" variant="link" onClick={() => setMethod(method === 'backup' ? 'totp' : 'backup')}>
          {method === 'backup' ? m.twofa_use_app() : m.twofa_use_backup()}
        </Button>
        <Button type="button" variant="link" onClick={sendEmailCode} disabled={sending}>
          {method === 'email' ? m.twofa_email_again() : m.twofa_email_me()}
        </Button>
        {method === 'email' ? (
          <Button type="button" variant="link" onClick={() => setMethod('totp')}>
            {m.twofa_use_app()}
          </Button>
        ) : null}
      </div>
    </div>
  )
}

const verifiers = {
  totp: (body: { code: string; trustDevice: boolean }) => authClient.twoFactor.verifyTotp(body),
  backup: (body: { code: string; trustDevice: boolean }) => authClient.twoFactor.verifyBackupCode(body),
  email: (body: { code: string; trustDevice: boolean }) => authClient.twoFactor.verifyOtp(body),
}

function CodeForm({
  method,
  onFailed,
  onVerified,
}: {
  method: Method
  onFailed: (error: AuthClientError) => void
  onVerified: () => void
}) {
  const schema = z.object({
    code: (method === 'backup' ? backupCodeSchema() : oneTimeCodeSchema()).shape.code,
    trustDevice: z.boolean(),
  })
  const form = useAppForm({
    defaultValues: { code: '', trustDevice: false },
    validators: { onDynamic: schema },
    onSubmit: async ({ value }) => {
      const { error } = await verifiers[method]({ code: schema.parse(value).code, trustDevice: value.trustDevice })
      if (error) {
        onFailed(error)
        return
      }
      onVerified()
      await staySubmitting()
    },
  })

  const instructions = {
    totp: m.twofa_challenge_totp(),
    backup: m.twofa_challenge_backup(),
    email: m.twofa_challenge_email(),
  }[method]
  const codeLabel = {
    totp: m.twofa_totp_label(),
    backup: m.twofa_backup_label(),
    email: m.twofa_email_code_label(),
  }[method]
  return (
    <form
      method="post"
      onSubmit={sendWith(form)}
      noValidate
      className="grid gap-4"
      aria-label={m.twofa_challenge_title()}
    >
      <p className="text-sm text-muted-foreground">{instructions}</p>
      <form.AppField name="code">
        {(field) => (
          <field.TextField
            label={codeLabel}
            type="text"
            inputMode={method === 'backup' ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={20}
            autoFocus
          />
        )}
      </form.AppField>
      <form.AppField name="trustDevice">
        {(field) => <field.CheckboxField label={m.twofa_trust_device()} />}
      </form.AppField>
      <form.AppForm>
        <form.SubmitButton pendingLabel={m.twofa_verifying()}>{m.twofa_verify()}</form.SubmitButton>
      </form.AppForm>
    </form>
  )
}
