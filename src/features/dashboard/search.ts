import { day, oneOf, searchParams } from '#/lib/url-search'
import { granularities, rangePresets } from './date-range'

/** The page's address: a mangled parameter is dropped (and its default used) rather than failing the page. */
export const dashboardSearch = searchParams({
  range: oneOf(rangePresets),
  from: day,
  to: day,
  granularity: oneOf(granularities),
})
export type DashboardSearch = ReturnType<typeof dashboardSearch>
