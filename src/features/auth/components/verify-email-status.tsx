import { Button } from '#/components/ui/button'
import type { SessionUser } from '#/lib/session-user'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** Where an emailed verification link lands: verified, still waiting, or a dead link. */
export function VerifyEmailStatus({ user, failed }: { user: SessionUser | null; failed: boolean }) {
  const message = failed ? m.auth_verify_failed() : user?.emailVerified ? m.auth_verify_done() : m.auth_verify_pending()
  return (
    <div className="grid gap-4">
      <p role="status" data-testid="verify-email-status">
        {message}
      </p>
      {user ? (
        <Button asChild>
          <a href={localizeHref('/console/account')}>{m.auth_go_to_console()}</a>
        </Button>
      ) : (
        <a className="text-sm text-primary underline-offset-4 hover:underline" href={localizeHref('/sign-in')}>
          {m.auth_back_to_sign_in()}
        </a>
      )}
    </div>
  )
}
