import { useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'

/** Query keys of auth data in TanStack Query; everything under ['auth'] belongs to the signed-in user. */
export const authQueryKeys = {
  all: ['auth'] as const,
  sessions: ['auth', 'sessions'] as const,
  deviceSessions: ['auth', 'device-sessions'] as const,
  passkeys: ['auth', 'passkeys'] as const,
  accounts: ['auth', 'accounts'] as const,
  apiKeys: ['auth', 'api-keys'] as const,
  organizationList: ['auth', 'organization-list'] as const,
}

/** Cached data of the user alone, the same whichever organization is active. */
const userQueryKeys: readonly (readonly string[])[] = [
  authQueryKeys.sessions,
  authQueryKeys.deviceSessions,
  authQueryKeys.passkeys,
  authQueryKeys.accounts,
  authQueryKeys.apiKeys,
  authQueryKeys.organizationList,
]

/**
 * tRPC's keys of the organization procedures (the full organization, roles, teams, members, activity):
 * `[path segments], options`.
 */
const organizationProcedures = [['organizations']]

/** The linked-account list goes stale after 10 s (spec section 9: auth cache stale time). */
export const accountListStaleTime = 10_000

/**
 * The refresh rules of spec section 4, in one place. The session (the user the console shows) is read by the console
 * route's loader, so refreshing it means invalidating the router.
 */
export function useAuthRefresh() {
  const router = useRouter()
  const queryClient = useQueryClient()
  return {
    /** After update-user, verify-email, passkey verify-authentication: same user, new details. */
    async session() {
      await Promise.all([
        router.invalidate(),
        queryClient.invalidateQueries({ queryKey: authQueryKeys.sessions }),
        queryClient.invalidateQueries({ queryKey: authQueryKeys.deviceSessions }),
      ])
    },
    /**
     * After sign-out, delete-user or multi-session set-active: another user (or none) from now on, so nothing cached
     * is theirs: neither the auth data nor any tRPC query (organizations, books, billing… are all the previous user's).
     */
    async userChanged() {
      queryClient.removeQueries()
      await router.invalidate()
    },
    /** After verify-registration, delete-passkey and update-passkey. */
    async passkeys() {
      await queryClient.invalidateQueries({ queryKey: authQueryKeys.passkeys })
    },
    async accounts() {
      await queryClient.invalidateQueries({ queryKey: authQueryKeys.accounts })
    },
    async apiKeys() {
      await queryClient.invalidateQueries({ queryKey: authQueryKeys.apiKeys })
    },
    /**
     * After any organization call: the active organization (its members, invitations, teams and roles) and the
     * console frame, which reads the organization, its list and the member's permissions on the server.
     */
    async activeOrganization() {
      await Promise.all([router.invalidate(), queryClient.invalidateQueries({ queryKey: organizationProcedures })])
    },
    /** After organization create, delete and update: the list in the switcher too. */
    async organizations() {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: authQueryKeys.organizationList }),
        this.activeOrganization(),
      ])
    },
    /**
     * After set-active, and after create (which makes the new organization the active one): another organization,
     * so nothing cached of the previous one is shown. Every tRPC query works on the active organization (books,
     * billing, the Dashboard's organization section…), so all of them go, with the organization's auth data; only
     * what belongs to the user alone stays.
     */
    async organizationSwitched() {
      queryClient.removeQueries({
        predicate: (query) => !userQueryKeys.some((key) => key.every((part, index) => query.queryKey[index] === part)),
      })
      await Promise.all([
        router.invalidate(),
        queryClient.invalidateQueries({ queryKey: authQueryKeys.organizationList }),
      ])
    },
    /** After a member role update: the active member and its role (the frame's permissions) and the member list. */
    async activeMember() {
      await this.activeOrganization()
    },
  }
}
