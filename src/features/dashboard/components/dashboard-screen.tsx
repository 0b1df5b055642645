import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { PageHeader } from '#/components/page-header'
import { dashboardApps } from '#/dashboard-apps.gen'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { useTRPC } from '#/lib/trpc'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { type DashboardRange, dashboardInputOf, dashboardRangeOf } from '../dashboard-queries'
import type { DashboardSearch } from '../search'
import { MemberOverview } from './member-overview'
import { OrganizationSection } from './organization-section'
import { RangePicker } from './range-picker'
import { LoadError, SectionSkeleton } from './section-states'
import { UsersSection } from './users-section'

/** How often the site's numbers refresh while the page is open. */
const siteRefreshMs = 60_000

/** The installed apps' sections of the site's numbers (traffic, revenue), in their order around the core's (users 20). */
const appSiteSections = dashboardApps
  .flatMap((app) => app.siteSections ?? [])
  .toSorted((a, b) => a.position - b.position)

/** The installed apps' sections of the organization's numbers (its books added), below the core's. */
const appOrganizationSections = dashboardApps
  .flatMap((app) => app.organizationSections ?? [])
  .toSorted((a, b) => a.position - b.position)

/**
 * The console's first page. App admins see the whole site (users, and what the installed apps add, such as traffic
 * and revenue); owners and admins of the active organization see its numbers; anyone else a short overview of where they are. Each section asks only for what the
 * server would answer its reader.
 */
export function DashboardScreen({
  search,
  onSearchChange,
}: {
  search: DashboardSearch
  onSearchChange: (change: Partial<DashboardSearch>, options?: { replace?: boolean }) => void
}) {
  const session = useConsoleSession()
  const settings = useSiteSettings()
  const canSeeOrganization = useCan({ organization: ['update'] })
  const canSeeSite = session.isAppAdmin
  const range = dashboardRangeOf(search, settings.analyticsTimeZone)
  return (
    <div className="grid max-w-6xl min-w-0 gap-8">
      <div>
        <PageHeader title={m.console_dashboard()} description={m.console_dashboard_description()} />
        {canSeeSite || canSeeOrganization ? <RangePicker range={range} onChange={onSearchChange} /> : null}
      </div>
      {canSeeSite ? <SiteSections range={{ ...range, timeZone: settings.analyticsTimeZone }} /> : null}
      {canSeeOrganization ? <OrganizationSections range={range} /> : null}
      {canSeeSite || canSeeOrganization ? null : <MemberOverview />}
    </div>
  )
}

function SiteSections({ range }: { range: DashboardRange & { timeZone: string } }) {
  if (range.problem) return null
  const drawn = [
    ...appSiteSections.map(({ position, component: Section }, index) => ({
      position,
      key: `app-${index}`,
      element: <Section range={range} />,
    })),
    { position: 20, key: 'users', element: <UsersSiteSection range={range} /> },
  ].toSorted((a, b) => a.position - b.position)
  return (
    <div className="grid gap-8">
      {drawn.map(({ key, element }) => (
        <div key={key} className="grid gap-8">
          {element}
        </div>
      ))}
    </div>
  )
}

/** The core's own site numbers: sign-ups and active users. */
function UsersSiteSection({ range }: { range: DashboardRange }) {
  const trpc = useTRPC()
  const site = useQuery({
    ...trpc.dashboard.site.queryOptions(dashboardInputOf(range)),
    enabled: range.problem === undefined,
    // A new range keeps the old numbers on screen until the new ones arrive, rather than flashing skeletons.
    placeholderData: keepPreviousData,
    refetchInterval: siteRefreshMs,
  })
  if (range.problem) return null
  if (site.error) return <LoadError error={site.error} />
  if (!site.data) return <SectionSkeleton label={m.dashboard_users_title()} />
  return (
    <div className="grid gap-8" aria-busy={site.isPlaceholderData || undefined}>
      <UsersSection data={site.data} />
    </div>
  )
}

function OrganizationSections({ range }: { range: DashboardRange }) {
  const trpc = useTRPC()
  const organization = useQuery({
    ...trpc.dashboard.organization.queryOptions(dashboardInputOf(range)),
    enabled: range.problem === undefined,
    placeholderData: keepPreviousData,
  })
  if (range.problem) return null
  if (organization.error) return <LoadError error={organization.error} />
  if (!organization.data) return <SectionSkeleton label={m.dashboard_organization_title()} />
  return (
    <div className="grid gap-8" aria-busy={organization.isPlaceholderData || undefined}>
      <OrganizationSection data={organization.data} />
      {appOrganizationSections.map(({ component: Section }, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the installed apps' sections never change order while shown
        <Section key={index} range={{ ...range, timeZone: organization.data.range.timeZone }} />
      ))}
    </div>
  )
}
