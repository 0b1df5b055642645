import { m } from '#/paraglide/messages'
import { formatCount, formatDay } from '../dashboard-format'
import type { SiteDashboard } from '../dashboard-queries'
import { CountChart } from './count-chart'
import { KpiCard, KpiGrid } from './kpi-card'

/** Sign-ups over the range, and how many people use the product now. */
export function UsersSection({ data }: { data: SiteDashboard }) {
  const { product, range } = data
  return (
    <section aria-labelledby="dashboard-users-title" className="grid gap-4">
      <h2 id="dashboard-users-title" className="text-lg font-semibold">
        {m.dashboard_users_title()}
      </h2>
      <KpiGrid>
        <KpiCard label={m.dashboard_kpi_signups()} value={formatCount(product.signUps.total)} testId="kpi-signups" />
        <KpiCard
          label={m.dashboard_kpi_active_7d()}
          value={formatCount(product.activeUsers.last7Days)}
          testId="kpi-active-users-7d"
        />
        <KpiCard
          label={m.dashboard_kpi_active_30d()}
          value={formatCount(product.activeUsers.last30Days)}
          testId="kpi-active-users-30d"
        />
        <KpiCard
          label={m.dashboard_kpi_active_sessions()}
          value={formatCount(product.activeSessions)}
          testId="kpi-active-sessions"
          hint={m.dashboard_kpi_active_sessions_hint()}
        />
      </KpiGrid>
      <CountChart
        title={m.dashboard_signups_title()}
        countLabel={m.dashboard_col_signups()}
        summary={m.dashboard_signups_summary({
          from: formatDay(range.from),
          to: formatDay(range.to),
          count: formatCount(product.signUps.total),
        })}
        series={product.signUps.series}
        range={range}
        file="signups"
        color="var(--chart-3)"
        empty={m.dashboard_no_signups()}
        testId="chart-signups"
      />
    </section>
  )
}
