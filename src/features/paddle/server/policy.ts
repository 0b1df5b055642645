import { type ProcedurePolicy, type RoutePolicy, signedIn } from '#/server/trpc/policy-gates'

/** Paddle's rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'paddle.get': {
    gate: signedIn,
    beyond:
      'only the buyer’s own checkout, while Paddle is active; opening it needs billing:manage in its organization now',
    names: ['checkout'],
  },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {}
