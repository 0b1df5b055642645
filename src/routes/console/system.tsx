import { createFileRoute } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { SystemScreen } from '#/features/system/components/system-screen'
import { keptEmailsInputOf, systemSearch } from '#/features/system/search'
import { getLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/system')({
  validateSearch: systemSearch,
  // App admins only; to anyone else the page does not exist (the server refuses its procedures the same way).
  beforeLoad: ({ context }) => {
    requireConsoleAccess(context.consoleSession.isAppAdmin, 'system')
  },
  head: () => ({ meta: [{ title: m.console_system() }] }),
  staticData: { crumb: m.console_system },
  loaderDeps: ({ search }) => ({ keptPage: search.keptPage, keptSize: search.keptSize }),
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.system.launchChecklist.queryOptions({ locale: getLocale() })),
      context.queryClient.prefetchQuery(context.trpc.system.status.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.system.jobs.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.system.keptEmails.queryOptions(keptEmailsInputOf(deps))),
    ]),
  component: SystemPage,
})

function SystemPage() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <SystemScreen
      search={search}
      onSearchChange={(change, options) =>
        navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace, resetScroll: false })
      }
    />
  )
}
