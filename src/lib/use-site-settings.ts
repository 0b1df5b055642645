import { useSuspenseQuery } from '@tanstack/react-query'
import { useTRPC } from '#/lib/trpc'

/** Site settings from the query cache (the root loader fetched them during server rendering). */
export function useSiteSettings() {
  const trpc = useTRPC()
  return useSuspenseQuery(trpc.settings.public.queryOptions()).data
}
