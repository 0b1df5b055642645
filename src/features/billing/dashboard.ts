import { defineDashboardApp } from '#/lib/app-manifest'
import { RevenueDashboardSection } from './components/revenue-section'

/** The Dashboard's money: paid orders and revenue per currency, MRR and subscriptions by plan. */
export const dashboardApp = defineDashboardApp({
  name: 'billing',
  siteSections: [{ position: 30, component: RevenueDashboardSection }],
})
