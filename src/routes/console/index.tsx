import { createFileRoute } from '@tanstack/react-router'
import { UpcomingSection } from '#/features/console/components/coming-soon'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/')({
  head: () => ({ meta: [{ title: m.console_dashboard() }] }),
  staticData: { crumb: m.console_dashboard },
  component: () => <UpcomingSection section="dashboard" />,
})
