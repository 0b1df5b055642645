import { UserRoundIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { m } from '#/paraglide/messages'
import { goAfterSignIn } from '../after-sign-in'

/** Starts a guest (anonymous) account; signing up later keeps what the guest made (src/server/auth/auth.ts). */
export function ContinueAsGuestButton({ redirect }: { redirect: string | undefined }) {
  const [pending, setPending] = useState(false)
  const start = async () => {
    setPending(true)
    const { error } = await authClient.signIn.anonymous()
    if (error) {
      setPending(false)
      toast.error(describeAuthError(error))
      return
    }
    goAfterSignIn(redirect)
  }
  return (
    <Button type="button" variant="outline" className="w-full" disabled={pending} onClick={start}>
      <UserRoundIcon aria-hidden />
      {pending ? m.guest_continuing() : m.guest_continue()}
    </Button>
  )
}
