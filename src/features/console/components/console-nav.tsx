import { Link } from '@tanstack/react-router'
import {
  ActivityIcon,
  Building2Icon,
  LayoutDashboardIcon,
  MailIcon,
  ServerIcon,
  ShieldCheckIcon,
  SlidersHorizontalIcon,
  UserIcon,
  UsersIcon,
  UsersRoundIcon,
} from 'lucide-react'
import { consoleApps } from '#/console-apps.gen'
import { allows, type Permissions } from '#/lib/access-control'
import type { ConsoleNavEntry as NavEntry } from '#/lib/app-manifest'
import type { ConsoleSession } from '#/lib/console-session'
import { m } from '#/paraglide/messages'

const can = (requested: Permissions) => (session: ConsoleSession) => allows(session.permissions, requested)
const appAdminOnly = (session: ConsoleSession) => session.isAppAdmin

const coreMainEntries: NavEntry[] = [
  { to: '/console', position: 0, label: m.console_dashboard, icon: LayoutDashboardIcon, exact: true },
  {
    to: '/console/configuration',
    position: 80,
    label: m.console_configuration,
    icon: SlidersHorizontalIcon,
    visible: appAdminOnly,
  },
  { to: '/console/users', position: 85, label: m.console_users, icon: UsersIcon, visible: appAdminOnly },
  { to: '/console/system', position: 90, label: m.console_system, icon: ServerIcon, visible: appAdminOnly },
  { to: '/console/account', position: 95, label: m.console_account, icon: UserIcon },
]

const coreOrganizationEntries: NavEntry[] = [
  { to: '/console/organization', position: 0, label: m.console_org_settings, icon: Building2Icon, exact: true },
  { to: '/console/organization/members', position: 10, label: m.console_org_members, icon: UsersRoundIcon },
  {
    to: '/console/organization/invitations',
    position: 20,
    label: m.console_org_invitations,
    icon: MailIcon,
    visible: can({ invitation: ['create'] }),
  },
  { to: '/console/organization/teams', position: 30, label: m.console_org_teams, icon: UsersIcon },
  {
    to: '/console/organization/roles',
    position: 40,
    label: m.console_org_roles,
    icon: ShieldCheckIcon,
    visible: can({ ac: ['read'] }),
  },
  {
    to: '/console/organization/activity',
    position: 60,
    label: m.console_org_activity,
    icon: ActivityIcon,
    visible: can({ activity: ['read'] }),
  },
]

/** A section's links: the core's and the installed apps', in their order. */
function withApps(section: 'main' | 'organization', core: NavEntry[]): NavEntry[] {
  const fromApps = consoleApps.flatMap((app) => (app.consoleNav ?? []).filter((entry) => entry.section === section))
  return [...core, ...fromApps].sort((a, b) => a.position - b.position)
}

const mainEntries = withApps('main', coreMainEntries)
const organizationEntries = withApps('organization', coreOrganizationEntries)

function NavLinks({
  entries,
  session,
  onNavigate,
}: {
  entries: NavEntry[]
  session: ConsoleSession
  onNavigate?: () => void
}) {
  return (
    <ul className="grid gap-0.5">
      {entries
        .filter((entry) => entry.visible?.(session) ?? true)
        .map((entry) => (
          <li key={entry.to}>
            <Link
              to={entry.to}
              activeOptions={{ exact: entry.exact ?? false }}
              onClick={onNavigate}
              className="flex items-center gap-2 rounded-md px-3 py-2 text-sm text-muted-foreground outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 data-[status=active]:bg-accent data-[status=active]:font-medium data-[status=active]:text-foreground"
            >
              <entry.icon className="size-4 shrink-0" aria-hidden />
              {entry.label()}
            </Link>
          </li>
        ))}
    </ul>
  )
}

/** The console's sections: the sidebar on wide screens, the drawer on phones. */
export function ConsoleNav({ session, onNavigate }: { session: ConsoleSession; onNavigate?: () => void }) {
  return (
    <nav aria-label={m.console_nav_label()} className="grid gap-4">
      <NavLinks entries={mainEntries} session={session} onNavigate={onNavigate} />
      <div className="grid gap-1">
        <p className="px-3 text-xs font-medium tracking-wide text-muted-foreground uppercase">
          {m.console_org_section()}
        </p>
        <NavLinks entries={organizationEntries} session={session} onNavigate={onNavigate} />
      </div>
    </nav>
  )
}
