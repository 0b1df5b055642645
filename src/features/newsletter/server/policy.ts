import { anyone, type ProcedurePolicy, type RoutePolicy } from '#/server/trpc/policy-gates'

/** The newsletter's row of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'newsletter.subscribe': { gate: anyone, beyond: 'per-address rate limit' },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {}
