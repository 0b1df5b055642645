import { QueryClient } from '@tanstack/react-query'
import { TRPCClientError } from '@trpc/client'

const isBrowser = typeof window !== 'undefined'
const maxRetryDelayMs = 30_000

/** A 4xx answer will not change by asking again; network failures and 5xx may. */
function isClientMistake(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false
  const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus
  return status !== undefined && status >= 400 && status < 500
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Up to 3 retries in the browser, none during server rendering (the error page is better than a slow page).
        retry: (failureCount, error) => isBrowser && !isClientMistake(error) && failureCount < 3,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, maxRetryDelayMs),
        gcTime: 5 * 60 * 1000,
        // Data rendered on the server is not fetched again right after hydration.
        staleTime: 30 * 1000,
      },
    },
  })
}
