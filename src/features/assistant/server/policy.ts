import { member, type ProcedurePolicy, type RoutePolicy } from '#/server/trpc/policy-gates'

/** The assistant's rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'assistant.status': { gate: member() },
  'assistant.conversations': { gate: member(), beyond: 'the caller’s own, in the active organization' },
  'assistant.conversation': { gate: member(), beyond: 'only the caller’s own', names: ['conversation'] },
  'assistant.rename': { gate: member(), beyond: 'only the caller’s own', names: ['conversation'] },
  'assistant.delete': { gate: member(), beyond: 'only the caller’s own', names: ['conversation'] },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {
  '/api/assistant': {
    who: 'a member of the active organization',
    how: 'session cookie, trusted Origin, per-person limit',
  },
}
