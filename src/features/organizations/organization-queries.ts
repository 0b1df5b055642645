import { useQuery } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { builtInRoles } from '#/lib/access-control'
import { accountListStaleTime } from '#/lib/auth-refresh'
import { useCan } from '#/lib/console-session'
import { useTRPC } from '#/lib/trpc'
import type { AppRouter } from '#/server/trpc/root'

/** The active organization with its members (and their users), pending invitations and teams. */
export function useFullOrganization() {
  const trpc = useTRPC()
  return useQuery({ ...trpc.organizations.full.queryOptions(), staleTime: accountListStaleTime })
}

type OrganizationsOutputs = inferRouterOutputs<AppRouter>['organizations']
export type FullOrganization = OrganizationsOutputs['full']
export type OrganizationMember = FullOrganization['members'][number]
export type CustomRole = OrganizationsOutputs['customRoles'][number]

/** The organization's own roles (dynamic access control), by name; asked for only where the member may read them. */
export function useCustomRoles() {
  const trpc = useTRPC()
  const canRead = useCan({ ac: ['read'] })
  return useQuery({
    ...trpc.organizations.customRoles.queryOptions(),
    staleTime: accountListStaleTime,
    enabled: canRead,
  })
}

/** Every role a member can be given here: the built-in ones, then the organization's own. */
export function useAssignableRoles(): string[] {
  const { data: custom = [] } = useCustomRoles()
  return [...builtInRoles, ...custom.map((role) => role.role)]
}

/** The teams of the active organization the signed-in user is in. */
export function useUserTeams() {
  const trpc = useTRPC()
  return useQuery({ ...trpc.organizations.myTeams.queryOptions(), staleTime: accountListStaleTime })
}

/** Who is in a team of the active organization (tRPC; refreshed with the rest of the organization's data). */
export function useTeamMembers(teamId: string) {
  const trpc = useTRPC()
  return useQuery({
    ...trpc.organizations.teamMemberships.queryOptions(),
    select: (memberships) => memberships.filter((membership) => membership.teamId === teamId),
  })
}

export type MemberRow = OrganizationsOutputs['members']['items'][number]
export type ActivityEntry = OrganizationsOutputs['activity']['items'][number]
