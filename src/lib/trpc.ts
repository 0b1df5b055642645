import { createIsomorphicFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { createTRPCClient, httpBatchLink, type TRPCLink, unstable_localLink } from '@trpc/client'
import { createTRPCContext } from '@trpc/tanstack-react-query'
import superjson from 'superjson'
import { trpcBatchCallsMax } from '#/lib/trpc-batch'
import { getDb } from '#/server/db/database'
import { createTrpcContext } from '#/server/trpc/context'
import { type AppRouter, appRouter } from '#/server/trpc/root'

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>()

/** During server rendering procedures run in-process; in the browser they go to /api/trpc in batches. */
const createLink = createIsomorphicFn()
  .server(
    (): TRPCLink<AppRouter> =>
      unstable_localLink({
        router: appRouter,
        transformer: superjson,
        createContext: async () => createTrpcContext({ db: getDb(), request: getRequest() }),
      }),
  )
  .client(
    (): TRPCLink<AppRouter> => httpBatchLink({ url: '/api/trpc', transformer: superjson, maxItems: trpcBatchCallsMax }),
  )

export function createTrpcClient() {
  return createTRPCClient<AppRouter>({ links: [createLink()] })
}
