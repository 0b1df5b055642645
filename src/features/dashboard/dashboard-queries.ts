import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '#/server/trpc/root'
import { type Granularity, presetRange, type RangePreset, rangeProblem, todayIn } from './date-range'
import type { DashboardSearch } from './search'

type DashboardOutputs = inferRouterOutputs<AppRouter>['dashboard']
export type SiteDashboard = DashboardOutputs['site']
export type OrganizationDashboard = DashboardOutputs['organization']

export interface DashboardRange {
  preset: RangePreset
  from: string
  to: string
  granularity: Granularity
  /** A translation key when the custom range cannot be asked for (inverted, too long); nothing is fetched then. */
  problem?: string
}

/**
 * The days the page's address asks for: a preset ends today in the dashboard's time zone; a custom range keeps the
 * days it names (a missing end falls back to the 30-day preset's). The route prefetches and the screen reads the same.
 */
export function dashboardRangeOf(search: DashboardSearch, timeZone: string, now: Date = new Date()): DashboardRange {
  const today = todayIn(timeZone, now)
  const preset = search.range ?? '30d'
  const granularity = search.granularity ?? 'day'
  const fallback = presetRange('30d', today)
  const days =
    preset === 'custom'
      ? { from: search.from ?? fallback.from, to: search.to ?? fallback.to }
      : presetRange(preset, today)
  // The address's days are real dates (the route's URL check), so only their order and span can be wrong.
  return { preset, ...days, granularity, problem: rangeProblem(days.from, days.to)?.message }
}

/** The procedures' input for a range (the same object for the route's prefetch and the screen's query). */
export function dashboardInputOf(range: Pick<DashboardRange, 'from' | 'to' | 'granularity'>) {
  return { from: range.from, to: range.to, granularity: range.granularity }
}
