import { defineDashboardApp } from '#/lib/app-manifest'
import { TrafficDashboardSection } from './components/traffic-section'

/** The Dashboard's traffic: visitors and page views against the previous period, live visitors, every breakdown. */
export const dashboardApp = defineDashboardApp({
  name: 'analytics',
  siteSections: [{ position: 10, component: TrafficDashboardSection }],
})
