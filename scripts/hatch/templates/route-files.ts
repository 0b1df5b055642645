// The generated app's console routes, mounted from its folder (docs/decisions/042): thin, as every route is.
import type { NewAppSpec } from '../new-app-spec.ts'
import { upper } from './server-files.ts'

export function routeFiles(spec: NewAppSpec): Record<string, string> {
  const s = spec
  const p = s.table
  const t = s.router
  const base = `routes/console/${s.app}`
  return {
    [`${base}/route.tsx`]: `import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/${s.app}')({
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { ${s.entity}: ['read'] }), '${s.app}')
  },
  staticData: { crumb: m.console_${p} },
  component: Outlet,
})
`,
    [`${base}/index.tsx`]: `import { createFileRoute } from '@tanstack/react-router'
import { listInputOf } from '#/features/${s.app}/${s.entityFile}-queries'
import { ${upper(t)}Screen } from '#/features/${s.app}/components/${s.app}-screen'
import { ${s.entity}ListSearch } from '#/features/${s.app}/search'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/${s.app}/')({
  validateSearch: ${s.entity}ListSearch,
  loaderDeps: ({ search }) => search,
  // Prefetched for the server render; a failure shows in the page rather than as an error screen.
  loader: ({ context, deps }) => context.queryClient.prefetchQuery(context.trpc.${t}.list.queryOptions(listInputOf(deps))),
  head: () => ({ meta: [{ title: m.console_${p}() }] }),
  component: ${upper(t)}Page,
})

function ${upper(t)}Page() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <${upper(t)}Screen
      search={search}
      onSearchChange={(change, options) =>
        navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace })
      }
    />
  )
}
`,
    [`${base}/$${s.entity}Id.tsx`]: `import { createFileRoute } from '@tanstack/react-router'
import { ${s.Entity}DetailsScreen } from '#/features/${s.app}/components/${s.entityFile}-details'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/${s.app}/$${s.entity}Id')({
  loader: ({ context, params }) =>
    context.queryClient.prefetchQuery(context.trpc.${t}.get.queryOptions({ id: params.${s.entity}Id })),
  head: () => ({ meta: [{ title: m.${p}_details_crumb() }] }),
  staticData: { crumb: m.${p}_details_crumb },
  component: ${s.Entity}Page,
})

function ${s.Entity}Page() {
  const { ${s.entity}Id } = Route.useParams()
  return <${s.Entity}DetailsScreen ${s.entity}Id={${s.entity}Id} />
}
`,
  }
}
