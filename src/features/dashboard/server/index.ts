// What an app's procedures for the Dashboard may use (docs/decisions/042): the range input every section takes, its
// previous period, and the series built from daily rows.

export { bucketsOf, type Granularity, previousPeriod } from '../date-range'
export { dashboardRangeInput } from '../schemas'
export { bucketed, byDay, countKeys, dayIn, seriesWithPrevious, total, withinDays } from './day-series'
