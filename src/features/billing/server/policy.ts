import { appAdmin, member, type ProcedurePolicy, type RoutePolicy, signedIn } from '#/server/trpc/policy-gates'

/** Billing's rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'billing.overview': { gate: member(), beyond: 'details only with billing:read' },
  'billing.orders': { gate: member({ billing: ['read'] }) },
  'billing.startCheckout': { gate: member({ billing: ['manage'] }) },
  'billing.previewChange': { gate: member({ billing: ['manage'] }) },
  'billing.previewSeats': { gate: member({ billing: ['manage'] }) },
  'billing.changePlan': { gate: member({ billing: ['manage'] }) },
  'billing.changeSeats': { gate: member({ billing: ['manage'] }) },
  'billing.setCancelAtPeriodEnd': { gate: member({ billing: ['manage'] }) },
  'billing.portal': { gate: member({ billing: ['manage'] }) },
  'billing.failingEvents': { gate: appAdmin },
  'billing.revenue': { gate: appAdmin },
  'billing.replayEvent': { gate: appAdmin, beyond: 'only an event the provider sent and the ledger stored' },
  'billing.local.get': {
    gate: signedIn,
    beyond: 'only the buyer’s own checkout, while the local provider is active',
    names: ['checkout'],
  },
  'billing.receipt.open': {
    gate: signedIn,
    beyond: 'only a paid order of an organization where the caller has billing:read now; any other is NOT_FOUND',
  },
  'billing.local.settle': {
    gate: signedIn,
    beyond: 'only the buyer’s own checkout; paying needs billing:manage in its organization now',
    names: ['checkout'],
  },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {
  '/api/billing/webhook/$provider': { who: 'the payment provider', how: 'the provider’s signature over the body' },
}
