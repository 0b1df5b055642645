import { appApiRoutePolicy, appProcedurePolicy } from './app-policies.gen'
import { anyone, appAdmin, member, type ProcedurePolicy, type RoutePolicy, signedIn } from './policy-gates'

export type { Gate, ProcedurePolicy, RoutePolicy } from './policy-gates'

/**
 * Who may call what: one row per tRPC procedure and per /api route. It is the spec the code is held to, not a second
 * implementation: tests/integration/authorization-matrix.test.ts walks the app router itself and calls every
 * procedure as every kind of caller (anonymous, no membership, each role, custom roles, app admin, banned,
 * impersonating, API keys live and revoked), and fails when a procedure has no row here or answers otherwise.
 * A new procedure or route gets its row in the same commit (docs: Security and reliability); an app's rows live in
 * its folder (src/features/<app>/server/policy.ts) and join these through app-policies.gen.ts.
 */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  ...appProcedurePolicy,
  'account.me': { gate: signedIn },
  'apiKeys.deleteExpired': { gate: signedIn, beyond: 'only the caller’s own expired keys' },

  'configuration.get': { gate: appAdmin },
  'configuration.update': { gate: appAdmin },
  'configuration.changes': { gate: appAdmin },

  'dashboard.site': { gate: appAdmin },
  'dashboard.organization': { gate: member({ organization: ['update'] }) },

  'organizations.planLimits': { gate: member() },
  'organizations.activity': { gate: member({ activity: ['read'] }) },
  'organizations.members': { gate: member() },
  'organizations.full': { gate: member() },
  'organizations.customRoles': { gate: member({ ac: ['read'] }) },
  'organizations.myTeams': { gate: member() },
  'organizations.teamMemberships': { gate: member() },
  'organizations.transferOwnership': { gate: member({ organization: ['delete'] }), names: ['member'] },
  'organizations.invitationPreview': {
    gate: anyone,
    beyond: 'the invitation’s id is its secret; answers only what the email already says',
    names: ['invitation'],
  },

  'settings.public': { gate: anyone },
  'system.status': { gate: appAdmin },
  'system.jobs': { gate: appAdmin },
  'system.retryEmail': { gate: appAdmin, beyond: 'only an email given up on (dead)' },
  'system.keptEmails': { gate: appAdmin },
  'system.keptEmail': { gate: appAdmin, beyond: 'only an email kept without SMTP (held), never one queued or sent' },
  'system.deleteKeptEmails': { gate: appAdmin, beyond: 'only emails kept without SMTP (held)' },
  'system.retryJob': { gate: appAdmin, beyond: 'only a failed job' },
  'system.launchChecklist': { gate: appAdmin },
  'system.sendTestEmail': { gate: appAdmin, beyond: 'only to the caller’s own address' },

  'users.list': { gate: appAdmin },
  'users.count': { gate: appAdmin },
  'users.get': { gate: appAdmin, names: ['user'] },
  'users.create': { gate: appAdmin },
  'users.setRole': { gate: appAdmin, beyond: 'never the last app admin', names: ['user'] },
  'users.ban': { gate: appAdmin, names: ['user'] },
  'users.unban': { gate: appAdmin, names: ['user'] },
  'users.setPassword': { gate: appAdmin, names: ['user'] },
  'users.revokeSession': { gate: appAdmin, names: ['user', 'session'] },
  'users.revokeAllSessions': { gate: appAdmin, names: ['user'] },
  'users.sendVerificationEmail': { gate: appAdmin, names: ['user'] },
  'users.sendPasswordEmail': { gate: appAdmin, names: ['user'] },
  'users.remove': { gate: appAdmin, beyond: 'never oneself', names: ['user'] },
}

/** Every server route under /api (file routes in src/routes/api, and tRPC and the metrics, answered at the server's entry). */
export const apiRoutePolicy: Record<string, RoutePolicy> = {
  ...appApiRoutePolicy,
  '/api/trpc': {
    who: 'per procedure',
    how: 'procedurePolicy above; changes need JSON and, with a cookie, a trusted Origin',
  },
  '/api/auth/$': {
    who: 'per Better Auth endpoint',
    how: 'Better Auth’s own session, origin and rate-limit checks, plus Hatch’s hooks (organization rules, role grants, per-account sign-in limits, API keys refused outside get-session)',
  },
  '/api/mcp': {
    who: 'anyone for docs tools; an API key for the installed apps’ tools',
    how: 'key checked once per request; POST only',
  },
  '/api/ask-docs': { who: 'anyone on this site’s pages', how: 'trusted Origin, per-address limit' },
  '/api/search': { who: 'anyone', how: 'public documentation only' },
  '/api/uploads/avatar': {
    who: 'a signed-in person, for their own picture',
    how: 'session cookie only, trusted Origin, 60 uploads a minute per person; the bytes must be an image (by content), at most 1 MiB',
  },
  '/api/uploads/organization-logo': {
    who: 'a member of the active organization with organization:update',
    how: 'session cookie only, trusted Origin, 60 uploads a minute per person; the bytes must be an image (by content), at most 1 MiB',
  },
  '/api/files/$': {
    who: 'anyone for profile pictures and logos; for other files, whoever holds a link this server signed, until it expires',
    how: 'content-addressed public names; HMAC over key, expiry and download name for the rest',
  },
  '/api/health': { who: 'anyone', how: 'says only ok or which service is unreachable' },
  '/api/metrics': {
    who: 'the metrics scraper, with METRICS_TOKEN',
    how: 'bearer token compared in constant time; 404 when METRICS_TOKEN is unset',
  },
  '/api/$': { who: 'anyone', how: 'a JSON 404 for any other /api path' },
}

/** Every server route under /.well-known (file routes in src/routes/[.]well-known): documents for programs. */
export const wellKnownRoutePolicy: Record<string, RoutePolicy> = {
  '/.well-known/security.txt': { who: 'anyone', how: 'the same public text for everyone; reads a site setting only' },
  '/.well-known/$': {
    who: 'anyone',
    how: 'a JSON 404 for any other path (no OAuth metadata: API keys, not OAuth, open /api/mcp and /api/trpc)',
  },
}
