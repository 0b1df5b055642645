import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { PageHeader } from '#/components/page-header'
import { useCan, useConsoleSession } from '#/lib/console-session'
import { useTRPC } from '#/lib/trpc'
import { useSiteSettings } from '#/lib/use-site-settings'
import { m } from '#/paraglide/messages'
import { describeDashboardError } from '../dashboard-errors'
import { type DashboardRange, dashboardInputOf, dashboardRangeOf } from '../dashboard-queries'
import type { DashboardSearch } from '../search'
import { MemberOverview } from './member-overview'
import { OrganizationSection } from './organization-section'
import { RangePicker } from './range-picker'
import { RevenueSection } from './revenue-section'
import { TrafficSection } from './traffic-section'
import { UsersSection } from './users-section'

/** How often the site's numbers refresh while the page is open: live visitors are "the last five minutes". */
const siteRefreshMs = 60_000

/**
 * The console's first page. App admins see the whole site (traffic, users, revenue); owners and admins of the active
 * organization see its numbers; anyone else a short overview of where they are. Each section asks only for what the
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
      {canSeeSite ? <SiteSections range={range} analyticsEnabled={settings.analyticsEnabled} /> : null}
      {canSeeOrganization ? <OrganizationSections range={range} /> : null}
      {canSeeSite || canSeeOrganization ? null : <MemberOverview />}
    </div>
  )
}

function SiteSections({ range, analyticsEnabled }: { range: DashboardRange; analyticsEnabled: boolean }) {
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
  if (!site.data) return <SectionSkeleton label={m.dashboard_traffic_title()} />
  return (
    <div className="grid gap-8" aria-busy={site.isPlaceholderData || undefined}>
      <TrafficSection data={site.data} analyticsEnabled={analyticsEnabled} />
      <UsersSection data={site.data} />
      <RevenueSection data={site.data} />
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
    <div aria-busy={organization.isPlaceholderData || undefined}>
      <OrganizationSection data={organization.data} />
    </div>
  )
}

function LoadError({ error }: { error: unknown }) {
  return (
    <p role="alert" className="rounded-xl border border-destructive/40 p-4 text-sm text-destructive">
      {describeDashboardError(error)}
    </p>
  )
}

/** The shape of a section while its numbers load: cards, then a chart. */
function SectionSkeleton({ label }: { label: string }) {
  return (
    <div className="grid gap-4" aria-busy="true">
      <p role="status" className="sr-only">
        {m.dashboard_loading({ section: label })}
      </p>
      <div className="h-6 w-40 animate-pulse rounded-md bg-muted" />
      <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 xl:grid-cols-4">
        {['a', 'b', 'c', 'd'].map((key) => (
          <div key={key} className="h-24 animate-pulse rounded-xl bg-muted" />
        ))}
      </div>
      <div className="h-72 animate-pulse rounded-xl bg-muted" />
    </div>
  )
}
