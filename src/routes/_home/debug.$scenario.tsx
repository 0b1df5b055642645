import { createFileRoute } from '@tanstack/react-router'
import { DebugScenarioScreen } from '#/features/diagnostics/components/debug-scenario-screen'
import { runDebugScenario } from '#/features/diagnostics/debug-scenario'

// Lets end-to-end tests and developers see the error and not-found screens; a 404 unless HATCH_DEBUG_ROUTES=1.
export const Route = createFileRoute('/_home/debug/$scenario')({
  loader: ({ params }) => runDebugScenario({ data: { scenario: params.scenario } }),
  component: DebugScenarioScreen,
})
