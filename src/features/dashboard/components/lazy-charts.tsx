import { lazy, Suspense } from 'react'
import type { Granularity } from '../date-range'
import type { BarsOverTimeProps, TrafficPoint } from './charts'

// The charting library loads with the first chart that has something to draw (charts.tsx says why). While a page
// hydrates, the chart the server drew stays on screen until its code has arrived; where nothing was drawn yet, the
// chart's own height is kept so nothing below it moves.
const LazyBarsOverTime = lazy(() => import('./charts').then((charts) => ({ default: charts.BarsOverTime })))
const LazyTrafficLines = lazy(() => import('./charts').then((charts) => ({ default: charts.TrafficLines })))

export function BarsOverTime(props: BarsOverTimeProps) {
  return (
    <Suspense fallback={<div className="h-56" />}>
      <LazyBarsOverTime {...props} />
    </Suspense>
  )
}

export function TrafficLines(props: { points: readonly TrafficPoint[]; granularity: Granularity }) {
  return (
    <Suspense fallback={<div className="h-64" />}>
      <LazyTrafficLines {...props} />
    </Suspense>
  )
}

export type { TrafficPoint }
