import { createRouter } from '@tanstack/react-router'
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query'
import { createIsomorphicFn } from '@tanstack/react-start'
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query'
import { PendingSpinner } from '#/components/pending-spinner'
import { PageNotFound, RouteErrorScreen } from '#/components/status-screens'
import { createQueryClient } from '#/lib/query-client'
import { createTrpcClient, TRPCProvider } from '#/lib/trpc'
import { currentRenderNonce } from '#/server/content-security-policy'
import type { AppRouter } from '#/server/trpc/root'
import { deLocalizeUrl, localizeUrl } from './paraglide/runtime'
import { routeTree } from './routeTree.gen'

/** The nonce of this request's render (server only): the router stamps it on every inline script it writes. */
const renderNonce = createIsomorphicFn()
  .server(() => currentRenderNonce())
  .client(() => undefined)

export function getRouter() {
  const queryClient = createQueryClient()
  const trpcClient = createTrpcClient()
  const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient })

  const router = createRouter({
    routeTree,
    context: { queryClient, trpc },
    // Routes are written without the locale; URLs always carry it (/en/..., /zh/...).
    rewrite: {
      input: ({ url }) => deLocalizeUrl(url),
      output: ({ url }) => localizeUrl(url),
    },
    scrollRestoration: true,
    ssr: { nonce: renderNonce() },
    defaultPreload: 'intent',
    defaultPreloadDelay: 50,
    defaultPreloadStaleTime: 0,
    defaultPendingMs: 1000,
    defaultPendingMinMs: 500,
    defaultGcTime: 300_000,
    defaultPendingComponent: PendingSpinner,
    defaultErrorComponent: RouteErrorScreen,
    defaultNotFoundComponent: PageNotFound,
    // A URL that matches no route gets the root's not-found screen, not a layout's.
    notFoundMode: 'root',
    // biome-ignore lint/correctness/noComponentHookFactories: created once per router, and it must close over this router's clients
    Wrap: ({ children }) => (
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    ),
  })
  // Dehydrates the query cache into the HTML, hydrates it in the browser, and navigates on thrown redirects.
  setupRouterSsrQueryIntegration({ router, queryClient })
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof getRouter>
  }
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The page's name in the console's breadcrumbs (translated when rendered). */
    crumb?: () => string
  }
}
