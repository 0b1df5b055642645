import { member, type ProcedurePolicy, type RoutePolicy } from '#/server/trpc/policy-gates'

/** The webhooks' rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'webhooks.list': { gate: member({ webhook: ['read'] }), beyond: 'never an endpoint’s secret' },
  'webhooks.create': {
    gate: member({ webhook: ['manage'] }),
    beyond: 'a URL resolving only to public addresses; at most 20 endpoints',
  },
  'webhooks.update': { gate: member({ webhook: ['manage'] }), names: ['webhook-endpoint'] },
  'webhooks.sendTest': { gate: member({ webhook: ['manage'] }), names: ['webhook-endpoint'] },
  'webhooks.delete': { gate: member({ webhook: ['manage'] }), names: ['webhook-endpoint'] },
  'webhooks.rotateSecret': { gate: member({ webhook: ['manage'] }), names: ['webhook-endpoint'] },
  'webhooks.deliveries': { gate: member({ webhook: ['read'] }), names: ['webhook-endpoint'] },
  'webhooks.resend': { gate: member({ webhook: ['manage'] }), names: ['webhook-delivery'] },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {}
