import { queryOptions, useQuery } from '@tanstack/react-query'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { accountListStaleTime, authQueryKeys } from '#/lib/auth-refresh'

/** Better Auth's provider id for the email-and-password account. */
export const passwordProviderId = 'credential'

/** The user's linked accounts, one request shared by every section that needs them (cached 10 s). */
export const linkedAccountsQuery = queryOptions({
  queryKey: authQueryKeys.accounts,
  queryFn: async () => {
    const { data, error } = await authClient.listAccounts()
    if (error) throw new Error(describeAuthError(error))
    return data ?? []
  },
  staleTime: accountListStaleTime,
})

/**
 * Whether the user has a password (undefined while loading). Accounts made by a link, a code, a provider or a passkey
 * have none until they set one; the password, two-factor and delete sections depend on it.
 */
export function useHasPassword(): boolean | undefined {
  return useQuery({
    ...linkedAccountsQuery,
    select: (accounts) => accounts.some((account) => account.providerId === passwordProviderId),
  }).data
}
