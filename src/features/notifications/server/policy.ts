import { type ProcedurePolicy, type RoutePolicy, signedIn } from '#/server/trpc/policy-gates'

/** The notifications' rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'notifications.list': { gate: signedIn, beyond: 'only the caller’s own' },
  'notifications.markRead': { gate: signedIn, beyond: 'only the caller’s own; other ids change nothing' },
  'notifications.markAllRead': { gate: signedIn, beyond: 'only the caller’s own' },
  'notifications.settings': { gate: signedIn, beyond: 'only the caller’s own' },
  'notifications.updateSettings': { gate: signedIn, beyond: 'only the caller’s own' },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {
  '/api/notifications': {
    who: 'a signed-in person, for their own notifications',
    how: 'session cookie only (no API key); says only that something changed, the data comes through tRPC',
  },
}
