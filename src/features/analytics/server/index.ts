// What the rest of the server may use of analytics (the import rules in .dependency-cruiser.cjs allow nothing else):
// the daily rollups the Dashboard reads, the rollup itself (run again when the time zone changes), and the beacons
// still queued in this server, written on shutdown.

export { type AnalyticsDimension, countLiveVisitors, type DailyAggregate, readDailyAggregates } from './aggregates'
export { flushAnalytics } from './analytics-jobs'
export { isDatabaseTimeZone, runAnalyticsRollup } from './rollup'
