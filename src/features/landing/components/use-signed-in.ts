import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '#/lib/trpc'

/**
 * Whether the visitor has a session, asked from the browser after hydration: the landing page is one cached HTML for
 * everyone, so nothing personal may be in it. `undefined` until the answer arrives. The header and the pricing
 * section share one request.
 */
export function useSignedIn(): boolean | undefined {
  const answer = useQuery({
    queryKey: ['auth', 'signed-in'],
    queryFn: async ({ signal }) => {
      const response = await fetch('/api/auth/get-session', { credentials: 'same-origin', signal })
      const body = response.ok ? ((await response.json()) as { session?: unknown } | null) : null
      return Boolean(body?.session)
    },
    staleTime: 60_000,
    retry: false,
  })
  return answer.isError ? false : answer.data
}

/** The signed-in visitor's organization plan (null for a visitor, or until known), for the pricing section. */
export function useCurrentPlanId(): string | null {
  const signedIn = useSignedIn()
  const trpc = useTRPC()
  const overview = useQuery({ ...trpc.billing.overview.queryOptions(), enabled: signedIn === true, retry: false })
  return overview.data?.planId ?? null
}
