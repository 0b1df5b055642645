import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, HeadContent, Outlet, Scripts, useRouter } from '@tanstack/react-router'
import type { TRPCOptionsProxy } from '@trpc/tanstack-react-query'
import { useEffect } from 'react'
import { Toaster } from 'sonner'
import { apps } from '#/apps.gen'
import { RootNotFound, RouteErrorScreen } from '#/components/status-screens'
import { ThemeProvider, useThemeChoice } from '#/components/theme-provider'
import { ImpersonationBanner } from '#/features/users/components/impersonation-banner'
import { getLocale, locales } from '#/lib/i18n'
import { themeBootScript } from '#/lib/theme'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { AppRouter } from '#/server/trpc/root'
import stylesheet from '#/styles.css?url'

export interface RouterContext {
  queryClient: QueryClient
  trpc: TRPCOptionsProxy<AppRouter>
}

const fallbackSettings = { productName: 'Hatch', defaultTheme: 'system', appUrl: '' } as const

export const Route = createRootRouteWithContext<RouterContext>()({
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.settings.public.queryOptions()),
  head: ({ loaderData, matches }) => {
    const appUrl = loaderData?.appUrl ?? ''
    const path = matches.at(-1)?.pathname ?? '/'
    // `_notFound` marks the match that shows a not-found screen (router internals; the e2e title test guards it).
    const notFound = matches.some(
      (match) => match.status === 'notFound' || (match as { _notFound?: boolean })._notFound === true,
    )
    const failed = matches.some((match) => match.status === 'error')
    const productName = loaderData?.productName ?? fallbackSettings.productName
    return {
      meta: [
        { charSet: 'utf-8' },
        { name: 'viewport', content: 'width=device-width, initial-scale=1' },
        { title: notFound ? m.not_found_title() : failed ? m.error_title() : productName },
        // Pages with their own (each docs page's) replace it: the router keeps the deepest match's meta of a name.
        { name: 'description', content: m.site_description({ product: productName }) },
      ],
      links: [
        { rel: 'stylesheet', href: stylesheet },
        { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
        ...locales.map((locale) => ({
          rel: 'alternate',
          hrefLang: locale,
          href: appUrl + localizeHref(path, { locale }),
        })),
        { rel: 'alternate', hrefLang: 'x-default', href: appUrl + localizeHref(path, { locale: 'en' }) },
      ],
      // What the installed apps load on every page (docs/decisions/042), as the settings say.
      scripts: loaderData ? apps.flatMap((app) => app.pageScripts?.(loaderData) ?? []) : [],
    }
  },
  shellComponent: RootDocument,
  component: Outlet,
  notFoundComponent: RootNotFound,
  errorComponent: RouteErrorScreen,
})

function RootDocument({ children }: { children: React.ReactNode }) {
  const defaultTheme = Route.useLoaderData()?.defaultTheme ?? fallbackSettings.defaultTheme
  const nonce = useRouter().options.ssr?.nonce
  // Marks the moment the whole page became interactive: end-to-end tests (and CSS, if needed) can wait for it. This
  // shell hydrates first; each route's content (a Suspense boundary of its own) hydrates after it, in later tasks.
  // A navigation started in between makes the router throw in the content still hydrating (TanStack/router#8198,
  // recovered by React), so the mark waits until the browser has nothing left to run.
  useEffect(() => {
    const markHydrated = () => {
      document.documentElement.dataset.hydrated = 'true'
    }
    if ('requestIdleCallback' in window) requestIdleCallback(markHydrated, { timeout: 5000 })
    else setTimeout(markHydrated)
  }, [])
  return (
    // The boot script sets the theme class before hydration, so React must not report it as a mismatch.
    <html lang={getLocale()} suppressHydrationWarning>
      <head>
        <HeadContent />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, built from a validated setting */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeBootScript(defaultTheme) }} />
      </head>
      <body>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[100] focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:shadow"
        >
          {m.skip_to_content()}
        </a>
        <ThemeProvider defaultTheme={defaultTheme}>
          <ImpersonationBanner />
          {children}
          <AppToaster />
        </ThemeProvider>
        <Scripts />
      </body>
    </html>
  )
}

function AppToaster() {
  const { theme } = useThemeChoice()
  return <Toaster position="bottom-right" duration={4000} visibleToasts={3} theme={theme} closeButton />
}
