import { Link } from '@tanstack/react-router'
import { LockIcon } from 'lucide-react'
import { PageNotFound } from '#/components/status-screens'
import { Button } from '#/components/ui/button'
import { consoleApps } from '#/console-apps.gen'
import type { GuardedPage } from '#/lib/app-manifest'
import type { ConsoleSession } from '#/lib/console-session'
import { m } from '#/paraglide/messages'
import type { GuardedConsolePage, NoAccess } from '../console-access'

/** Each guarded page by the name its navigation shows, and who can grant it: the organization, or the app's admins. */
const corePages: Record<GuardedConsolePage, GuardedPage> = {
  invitations: { name: m.console_org_invitations, grantedBy: 'organization' },
  roles: { name: m.console_org_roles, grantedBy: 'organization' },
  activity: { name: m.console_org_activity, grantedBy: 'organization' },
  users: { name: m.console_users, grantedBy: 'app' },
  configuration: { name: m.console_configuration, grantedBy: 'app' },
  system: { name: m.console_system, grantedBy: 'app' },
}

const guardedPages: Record<string, GuardedPage> = Object.assign(
  {},
  corePages,
  ...consoleApps.map((app) => app.guardedPages ?? {}),
)

function noAccessOf(data: unknown): { name: string; grantedBy: 'organization' | 'app' } | null {
  const page = (data as Partial<NoAccess> | undefined)?.noAccess
  const guarded = page && Object.hasOwn(guardedPages, page) ? guardedPages[page] : undefined
  return guarded ? { name: guarded.name(), grantedBy: guarded.grantedBy } : null
}

/**
 * What a console page says to someone who may not open it: which page, why, and who can grant it. Any other
 * not-found inside the console is the usual "page not found", in the console's frame.
 */
export function ConsoleNotFound({ data, session }: { data: unknown; session: ConsoleSession }) {
  const page = noAccessOf(data)
  if (!page) return <PageNotFound />
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-6 py-16 text-center"
      data-testid="console-no-access"
    >
      <LockIcon className="size-8 text-muted-foreground" aria-hidden />
      <h1 className="text-2xl font-semibold tracking-tight">{m.console_no_access_title({ page: page.name })}</h1>
      <p className="text-muted-foreground">
        {page.grantedBy === 'app'
          ? m.console_no_access_app()
          : m.console_no_access_organization({ organization: session.organization.name })}
      </p>
      <Button asChild>
        <Link to="/console">{m.console_no_access_back()}</Link>
      </Button>
    </main>
  )
}
