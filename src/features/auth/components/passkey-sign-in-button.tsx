import { KeyRoundIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import {
  autofillChallengeRequested,
  autofillChallengeSettled,
  untilAutofillChallengeSettled,
} from '#/lib/passkey-challenge'
import { m } from '#/paraglide/messages'
import { goAfterSignIn } from '../after-sign-in'
import { browserSupportsPasskeys, describePasskeySignInError, isSilentAutofillEnd } from '../passkey-errors'

/** Whether the browser offers passkeys in the username field's autofill list (WebAuthn conditional UI). */
async function autofillAvailable(): Promise<boolean> {
  if (!browserSupportsPasskeys()) return false
  return (await window.PublicKeyCredential.isConditionalMediationAvailable?.()) ?? false
}

/**
 * "Sign in with a passkey", and the same ceremony offered quietly through the identifier field's autofill
 * (`autocomplete="username webauthn"`), so a visitor can also just pick their passkey there.
 */
export function PasskeySignInButton({ redirect }: { redirect: string | undefined }) {
  const [pending, setPending] = useState(false)

  useEffect(() => {
    let mounted = true
    // Announced before the first await, so a quick click on the button cannot start its ceremony unnoticed.
    autofillChallengeRequested()
    void (async () => {
      if (!(await autofillAvailable()) || !mounted) {
        autofillChallengeSettled()
        return
      }
      // Waits until the visitor picks a passkey in the autofill list; a click on the button aborts it.
      const { error } = await authClient.signIn.passkey({ autoFill: true }).finally(autofillChallengeSettled)
      if (!mounted) return
      if (!error) goAfterSignIn(redirect)
      else if (!isSilentAutofillEnd(error)) toast.error(describePasskeySignInError(error))
    })()
    return () => {
      mounted = false
    }
  }, [redirect])

  const signIn = async () => {
    if (!browserSupportsPasskeys()) {
      toast.error(m.passkey_not_supported())
      return
    }
    setPending(true)
    await untilAutofillChallengeSettled()
    const { error } = await authClient.signIn.passkey()
    if (error) {
      setPending(false)
      toast.error(describePasskeySignInError(error))
      return
    }
    // A full page load, so the whole page starts from the new session.
    goAfterSignIn(redirect)
  }

  return (
    <Button type="button" variant="outline" onClick={signIn} disabled={pending}>
      <KeyRoundIcon aria-hidden />
      {pending ? m.passkey_signing_in() : m.passkey_sign_in()}
    </Button>
  )
}
