import { member, type ProcedurePolicy, type RoutePolicy } from '#/server/trpc/policy-gates'

/** Single sign-on's rows of the authorization policy (src/server/trpc/authorization-policy.ts). */
export const procedurePolicy: Record<string, ProcedurePolicy> = {
  'sso.get': { gate: member({ organization: ['update', 'delete'] }), beyond: 'never the client secret' },
  'sso.saveOidc': {
    gate: member({ organization: ['update', 'delete'] }),
    beyond:
      'the issuer is read from public addresses only (unless SSO_ALLOW_PRIVATE); a domain another organization verified is refused',
  },
  'sso.saveSaml': {
    gate: member({ organization: ['update', 'delete'] }),
    beyond:
      'a metadata URL is read from public addresses only (unless SSO_ALLOW_PRIVATE); a domain another organization verified is refused',
  },
  'sso.verifyDomain': {
    gate: member({ organization: ['update', 'delete'] }),
    beyond: 'the organization’s own connection',
  },
  'sso.setRequired': {
    gate: member({ organization: ['update', 'delete'] }),
    beyond: 'only once the domain is verified',
  },
  'sso.remove': { gate: member({ organization: ['update', 'delete'] }) },
}

export const apiRoutePolicy: Record<string, RoutePolicy> = {}
