import { keepPreviousData, useQuery } from '@tanstack/react-query'
import {
  CountChart,
  dashboardInputOf,
  formatCount,
  formatDay,
  KpiCard,
  KpiGrid,
  LoadError,
  SectionSkeleton,
} from '#/features/dashboard'
import type { DashboardSectionProps } from '#/lib/app-manifest'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'

/** The organization's books added in the Dashboard's range: the total, how many of them are deleted since, per bucket. */
export function BooksAddedSection({ range }: DashboardSectionProps) {
  const trpc = useTRPC()
  const added = useQuery({
    ...trpc.books.added.queryOptions(dashboardInputOf(range)),
    placeholderData: keepPreviousData,
  })
  if (added.error) return <LoadError error={added.error} />
  if (!added.data) return <SectionSkeleton label={m.dashboard_org_books_added()} />
  const { total, deletedSince, series } = added.data
  return (
    <section
      aria-labelledby="dashboard-books-added-title"
      className="grid gap-4"
      aria-busy={added.isPlaceholderData || undefined}
    >
      <h2 id="dashboard-books-added-title" className="sr-only">
        {m.dashboard_org_books_added()}
      </h2>
      <KpiGrid>
        <KpiCard
          label={m.dashboard_org_books_added()}
          value={formatCount(total)}
          testId="kpi-org-books-added"
          hint={
            deletedSince > 0 ? m.dashboard_org_books_deleted_since({ count: formatCount(deletedSince) }) : undefined
          }
        />
      </KpiGrid>
      <CountChart
        title={m.dashboard_org_books_added()}
        countLabel={m.dashboard_org_books_added()}
        summary={m.dashboard_books_summary({
          from: formatDay(added.data.range.from),
          to: formatDay(added.data.range.to),
          count: formatCount(total),
        })}
        series={series}
        range={added.data.range}
        file="books-added"
        color="var(--chart-2)"
        empty={m.dashboard_no_books()}
        testId="chart-books-added"
      />
    </section>
  )
}
