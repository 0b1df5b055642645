import { useQuery } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { builtInRoles } from '#/lib/access-control'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { accountListStaleTime, authQueryKeys } from '#/lib/auth-refresh'
import { useConsoleSession } from '#/lib/console-session'
import { useTRPC } from '#/lib/trpc'
import type { AppRouter } from '#/server/trpc/root'

/** Fails the query with the translated message, so the screen can show it. */
function unwrap<T>(result: { data: T | null; error: Parameters<typeof describeAuthError>[0] | null }): T {
  if (result.error) throw new Error(describeAuthError(result.error))
  if (result.data === null) throw new Error(describeAuthError({ status: 404, code: 'ORGANIZATION_NOT_FOUND' }))
  return result.data
}

/** Query keys of the active organization's data; refresh rules invalidate everything under authQueryKeys.organization. */
export const organizationKeys = {
  full: (organizationId: string) => [...authQueryKeys.organization, organizationId, 'full'] as const,
  roles: (organizationId: string) => [...authQueryKeys.organization, organizationId, 'roles'] as const,
}

/** The active organization with its members (and their users), pending invitations and teams. */
export function useFullOrganization() {
  const { organization } = useConsoleSession()
  return useQuery({
    queryKey: organizationKeys.full(organization.id),
    staleTime: accountListStaleTime,
    queryFn: async () =>
      unwrap(
        await authClient.organization.getFullOrganization({
          query: { organizationId: organization.id, membersLimit: 1000 },
        }),
      ),
  })
}

export type FullOrganization = NonNullable<ReturnType<typeof useFullOrganization>['data']>
export type OrganizationMember = FullOrganization['members'][number]

export interface CustomRole {
  id: string
  role: string
  permission: Record<string, string[]>
}

/** The organization's own roles (dynamic access control), by name. */
export function useCustomRoles() {
  const { organization } = useConsoleSession()
  return useQuery({
    queryKey: organizationKeys.roles(organization.id),
    staleTime: accountListStaleTime,
    queryFn: async (): Promise<CustomRole[]> => {
      const roles = unwrap(await authClient.organization.listRoles({ query: { organizationId: organization.id } }))
      return roles
        .map(({ id, role, permission }) => ({ id, role, permission: permission as Record<string, string[]> }))
        .sort((a, b) => a.role.localeCompare(b.role))
    },
  })
}

/** Every role a member can be given here: the built-in ones, then the organization's own. */
export function useAssignableRoles(): string[] {
  const { data: custom = [] } = useCustomRoles()
  return [...builtInRoles, ...custom.map((role) => role.role)]
}

/** The teams the signed-in user is in, across the active organization (GET /organization/list-user-teams). */
export function useUserTeams() {
  const { organization } = useConsoleSession()
  return useQuery({
    queryKey: [...authQueryKeys.userTeams, organization.id],
    staleTime: accountListStaleTime,
    queryFn: async () => unwrap(await authClient.organization.listUserTeams()),
  })
}

/** Who is in a team of the active organization (tRPC; refreshed with the rest of the organization's data). */
export function useTeamMembers(teamId: string) {
  const trpc = useTRPC()
  return useQuery({
    ...trpc.organizations.teamMemberships.queryOptions(),
    select: (memberships) => memberships.filter((membership) => membership.teamId === teamId),
  })
}

type OrganizationsOutputs = inferRouterOutputs<AppRouter>['organizations']
export type MemberRow = OrganizationsOutputs['members']['items'][number]
export type ActivityEntry = OrganizationsOutputs['activity']['items'][number]
