import { ReceiptIcon } from 'lucide-react'
import { useId } from 'react'
import { EmptyState } from '#/components/empty-state'
import { planName } from '#/lib/plan-text'
import { m } from '#/paraglide/messages'
import { csvFileName } from '../csv-export'
import { formatBucket, formatCount, formatDay, formatMoney, formatNoMoney } from '../dashboard-format'
import type { SiteDashboard } from '../dashboard-queries'
import { ChartPanel } from './chart-panel'
import { CsvButton, csvOf, DashboardTable, type TableColumn } from './dashboard-table'
import { KpiCard, KpiGrid } from './kpi-card'
import { BarsOverTime } from './lazy-charts'

type CurrencyRevenue = SiteDashboard['billing']['revenue'][number]
type RevenuePoint = CurrencyRevenue['series'][number]
type PlanCount = SiteDashboard['billing']['subscriptionsByPlan'][number]

/** Money from the billing ledger: paid orders per currency over the range, MRR and subscriptions by plan now. */
export function RevenueSection({ data }: { data: SiteDashboard }) {
  const { billing, range } = data
  return (
    <section aria-labelledby="dashboard-revenue-title" className="grid gap-4">
      <h2 id="dashboard-revenue-title" className="text-lg font-semibold">
        {m.dashboard_revenue_title()}
      </h2>
      <KpiGrid>
        {billing.mrr.length === 0 ? (
          <KpiCard
            label={m.dashboard_mrr_title()}
            value={formatNoMoney()}
            testId="kpi-mrr"
            hint={m.dashboard_mrr_none()}
          />
        ) : (
          billing.mrr.map((row) => (
            <KpiCard
              key={row.currency}
              label={m.dashboard_mrr_in({ currency: row.currency })}
              value={formatMoney(row.amount, row.currency)}
              testId={`kpi-mrr-${row.currency}`}
              hint={m.dashboard_mrr_hint()}
            />
          ))
        )}
        <KpiCard
          label={m.dashboard_kpi_subscriptions()}
          value={formatCount(billing.activeSubscriptions)}
          testId="kpi-subscriptions"
          hint={m.dashboard_kpi_subscriptions_hint()}
        />
      </KpiGrid>
      {billing.revenue.length === 0 ? (
        <EmptyState icon={ReceiptIcon} title={m.dashboard_no_revenue_title()}>
          {m.dashboard_no_revenue()}
        </EmptyState>
      ) : (
        <div className={billing.revenue.length > 1 ? 'grid gap-4 lg:grid-cols-2' : 'grid gap-4'}>
          {billing.revenue.map((currency) => (
            <RevenueChart key={currency.currency} revenue={currency} range={range} />
          ))}
        </div>
      )}
      <SubscriptionsByPlan rows={billing.subscriptionsByPlan} range={range} />
    </section>
  )
}

function RevenueChart({ revenue, range }: { revenue: CurrencyRevenue; range: SiteDashboard['range'] }) {
  const { currency } = revenue
  const granularity = range.granularity
  const money = (amount: number) => formatMoney(amount, currency)
  const columns: TableColumn<RevenuePoint>[] = [
    { header: m.dashboard_col_period(), cell: (row) => formatBucket(row.start, granularity), csv: (row) => row.start },
    {
      header: m.dashboard_col_orders(),
      numeric: true,
      cell: (row) => formatCount(row.orders),
      csv: (row) => row.orders,
    },
    {
      header: m.dashboard_col_revenue_in({ currency }),
      numeric: true,
      cell: (row) => money(row.revenue),
      // Major units with two decimals: what a spreadsheet expects of a money column.
      csv: (row) => (row.revenue / 100).toFixed(2),
    },
  ]
  return (
    <ChartPanel
      title={m.dashboard_revenue_chart_title({ currency })}
      description={m.dashboard_revenue_totals({
        orders: formatCount(revenue.orders),
        amount: money(revenue.revenue),
        refunded: money(revenue.refunded),
      })}
      summary={m.dashboard_revenue_summary({
        currency,
        from: formatDay(range.from),
        to: formatDay(range.to),
        amount: money(revenue.revenue),
        orders: formatCount(revenue.orders),
      })}
      columns={columns}
      rows={revenue.series}
      rowKey={(row) => row.start}
      fileName={csvFileName(`revenue-${currency.toLowerCase()}`, range)}
      testId={`chart-revenue-${currency}`}
    >
      <BarsOverTime
        points={revenue.series}
        valueKey="revenue"
        label={m.dashboard_col_revenue()}
        color="var(--chart-4)"
        granularity={granularity}
        format={money}
        yAxisWidth={64}
        allowDecimals
      />
    </ChartPanel>
  )
}

function SubscriptionsByPlan({ rows, range }: { rows: readonly PlanCount[]; range: SiteDashboard['range'] }) {
  const titleId = useId()
  const title = m.dashboard_subscriptions_title()
  const columns: TableColumn<PlanCount>[] = [
    { header: m.dashboard_col_plan(), cell: (row) => planName(row.planId), csv: (row) => planName(row.planId) },
    {
      header: m.dashboard_col_subscriptions(),
      numeric: true,
      cell: (row) => formatCount(row.count),
      csv: (row) => row.count,
    },
  ]
  return (
    <section aria-labelledby={titleId} className="min-w-0 rounded-xl border p-4">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="font-semibold">
          {title}
        </h3>
        <CsvButton title={title} fileName={csvFileName('subscriptions', range)} table={() => csvOf(columns, rows)} />
      </div>
      <DashboardTable labelledBy={titleId} columns={columns} rows={rows} rowKey={(row) => row.planId} />
    </section>
  )
}
