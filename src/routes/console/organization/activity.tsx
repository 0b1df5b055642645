import { createFileRoute, notFound } from '@tanstack/react-router'
import { ActivityLog } from '#/features/organizations/components/activity-log'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/activity')({
  beforeLoad: ({ context }) => {
    if (!allows(context.consoleSession.permissions, { activity: ['read'] })) throw notFound()
  },
  head: () => ({ meta: [{ title: m.console_org_activity() }] }),
  staticData: { crumb: m.console_org_activity },
  component: ActivityLog,
})
