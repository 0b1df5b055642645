import { getRouteApi } from '@tanstack/react-router'
import { m } from '#/paraglide/messages'

const route = getRouteApi('/_home/debug/$scenario')

export function DebugScenarioScreen() {
  const result = route.useLoaderData()
  return (
    <main id="main" className="mx-auto max-w-xl px-6 py-16">
      <h1 className="text-2xl font-semibold">{m.debug_title()}</h1>
      <p className="mt-2 text-muted-foreground" data-testid="debug-result">
        {m.debug_loaded()} ({result.scenario}, {result.loadedAt})
      </p>
    </main>
  )
}
