import { VenetianMaskIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { type ImpersonatedPerson, readImpersonationCookie } from '#/lib/impersonation'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/**
 * Shown on every page while an app admin acts as someone else. It reads the readable cookie the server sets for the
 * length of the impersonation, so cached pages show it too; stopping brings the admin back to that person's page in Users.
 */
export function ImpersonationBanner() {
  const [person, setPerson] = useState<ImpersonatedPerson | null>(null)
  const [stopping, setStopping] = useState(false)
  useEffect(() => {
    setPerson(readImpersonationCookie(document.cookie))
  }, [])
  if (!person) return null

  const stop = async () => {
    setStopping(true)
    // Loaded on demand: every page carries the banner, few need the auth client.
    const [{ authClient }, { describeAuthError }] = await Promise.all([
      import('#/lib/auth-client'),
      import('#/lib/auth-errors'),
    ])
    const { error } = await authClient.admin.stopImpersonating()
    if (error) {
      setStopping(false)
      // The hour is over (or the session was ended): the cookie is stale, so sign in again.
      toast.error(describeAuthError(error))
      // biome-ignore lint/suspicious/noDocumentCookie: clears the readable marker the server set, nothing to escape
      document.cookie = 'hatch.impersonating=; Max-Age=0; path=/'
      window.location.assign(localizeHref('/sign-in'))
      return
    }
    // Back to the person the admin was acting as, where the admin started.
    const usersPage = localizeHref('/console/users')
    window.location.assign(person.id ? `${usersPage}/${encodeURIComponent(person.id)}` : usersPage)
  }

  return (
    <div
      role="status"
      data-testid="impersonation-banner"
      className="sticky top-0 z-[60] flex flex-wrap items-center justify-center gap-x-4 gap-y-2 bg-amber-400 px-4 py-2 text-sm text-amber-950"
    >
      <span className="flex items-center gap-2">
        <VenetianMaskIcon className="size-4 shrink-0" aria-hidden />
        <span className="break-words">{m.impersonation_banner({ name: person.name, email: person.email })}</span>
      </span>
      <Button
        size="sm"
        variant="outline"
        className="border-amber-950/40 bg-transparent text-amber-950 hover:bg-amber-950/10"
        disabled={stopping}
        onClick={stop}
      >
        {m.impersonation_stop()}
      </Button>
    </div>
  )
}
