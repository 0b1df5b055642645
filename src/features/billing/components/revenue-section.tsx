import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { ReceiptIcon } from 'lucide-react'
import { useId } from 'react'
import { EmptyState } from '#/components/empty-state'
import {
  BarsOverTime,
  ChartPanel,
  CsvButton,
  csvFileName,
  csvOf,
  DashboardTable,
  dashboardInputOf,
  formatBucket,
  formatCount,
  formatDay,
  formatMoney,
  formatNoMoney,
  KpiCard,
  KpiGrid,
  LoadError,
  SectionSkeleton,
  type TableColumn,
} from '#/features/dashboard'
import type { DashboardSectionProps } from '#/lib/app-manifest'
import { planName } from '#/lib/plan-text'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import type { AppRouter } from '#/server/trpc/root'

type RevenueNumbers = inferRouterOutputs<AppRouter>['billing']['revenue']
type CurrencyRevenue = RevenueNumbers['revenue'][number]
type RevenuePoint = CurrencyRevenue['series'][number]
type PlanCount = RevenueNumbers['subscriptionsByPlan'][number]

/** How often the site's numbers refresh while the page is open, as the Dashboard's own do. */
const refreshMs = 60_000

/** The Dashboard's revenue, for app admins: asks for its numbers (`billing.revenue`) for the range. */
export function RevenueDashboardSection({ range }: DashboardSectionProps) {
  const trpc = useTRPC()
  const revenue = useQuery({
    ...trpc.billing.revenue.queryOptions(dashboardInputOf(range)),
    // A new range keeps the old numbers on screen until the new ones arrive, rather than flashing skeletons.
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  })
  if (revenue.error) return <LoadError error={revenue.error} />
  if (!revenue.data) return <SectionSkeleton label={m.dashboard_revenue_title()} />
  return (
    <div className="grid gap-8" aria-busy={revenue.isPlaceholderData || undefined}>
      <RevenueSection data={revenue.data} />
    </div>
  )
}

/** Money from the billing ledger: paid orders per currency over the range, MRR and subscriptions by plan now. */
function RevenueSection({ data }: { data: RevenueNumbers }) {
  const billing = data
  const { range } = data
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

function RevenueChart({ revenue, range }: { revenue: CurrencyRevenue; range: RevenueNumbers['range'] }) {
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

function SubscriptionsByPlan({ rows, range }: { rows: readonly PlanCount[]; range: RevenueNumbers['range'] }) {
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
