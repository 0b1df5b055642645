import { useQuery } from '@tanstack/react-query'

/**
 * Whether the visitor has a session, asked from the browser after hydration: the landing page is one cached HTML for
 * everyone, so nothing personal may be in it. `undefined` until the answer arrives. The header and the apps'
 * sections (pricing) share one request.
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
