import { appAdmin, type ProcedurePolicy, type RoutePolicy } from '#/server/trpc/policy-gates'

/** The analytics' rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'analytics.traffic': { gate: appAdmin },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {
  '/api/insights': { who: 'anyone', how: 'no cookie read; per-address limit; this site’s pages only' },
  '/api/insights.js': { who: 'anyone', how: 'the same script for everyone; no cookie read' },
}
