import { Link } from '@tanstack/react-router'
import { Building2Icon, UserIcon } from 'lucide-react'
import { Button } from '#/components/ui/button'
import { dashboardApps } from '#/dashboard-apps.gen'
import { useConsoleSession } from '#/lib/console-session'
import { rolesLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'

/** The installed apps' places a member most likely goes to (the organization's books). */
const shortcuts = dashboardApps.flatMap((app) => app.memberShortcuts ?? [])

/**
 * What a member who may see neither the site's nor the organization's numbers finds here: where they are, and the
 * places they will most likely go next.
 */
export function MemberOverview() {
  const session = useConsoleSession()
  return (
    <section aria-labelledby="dashboard-overview-title" className="rounded-xl border p-4 sm:p-6">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-secondary">
          <Building2Icon className="size-5 text-muted-foreground" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id="dashboard-overview-title" className="font-semibold break-words">
            {m.dashboard_overview_title({ organization: session.organization.name })}
          </h2>
          <p className="mt-1 text-sm text-muted-foreground" data-testid="dashboard-overview-role">
            {m.dashboard_overview_role({ role: rolesLabel(session.member.role) })}
          </p>
          <p className="mt-2 text-sm">{m.dashboard_overview_text()}</p>
        </div>
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        {shortcuts
          .filter((shortcut) => shortcut.visible?.(session) ?? true)
          .map(({ to, label, icon: Icon }) => (
            <Button asChild key={String(to)}>
              <Link to={to}>
                <Icon aria-hidden />
                {label()}
              </Link>
            </Button>
          ))}
        <Button asChild variant="outline">
          <Link to="/console/account">
            <UserIcon aria-hidden />
            {m.dashboard_overview_account()}
          </Link>
        </Button>
      </div>
    </section>
  )
}
