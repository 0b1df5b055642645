// What an app's section of the Dashboard may use (docs/decisions/042): the Dashboard's cards, charts, tables, formats
// and the range its sections are drawn for.

export { ChartPanel } from './components/chart-panel'
export { CountChart } from './components/count-chart'
export { CsvButton, csvOf, DashboardTable, type TableColumn } from './components/dashboard-table'
export { KpiCard, KpiGrid } from './components/kpi-card'
export { BarsOverTime, TrafficLines, type TrafficPoint } from './components/lazy-charts'
export { LoadError, SectionSkeleton } from './components/section-states'
export { csvFileName } from './csv-export'
export { formatBucket, formatCount, formatDay, formatDuration, formatMoney, formatNoMoney } from './dashboard-format'
export { dashboardInputOf } from './dashboard-queries'
