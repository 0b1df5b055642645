import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '#/server/trpc/root'

/** What the Dashboard's traffic section draws (the analytics.traffic procedure's answer). */
export type TrafficNumbers = inferRouterOutputs<AppRouter>['analytics']['traffic']
export type BreakdownRow = TrafficNumbers['breakdowns']['page'][number]
