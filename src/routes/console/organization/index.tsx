import { createFileRoute } from '@tanstack/react-router'
import { OrganizationSettings } from '#/features/organizations/components/organization-settings'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/')({
  head: () => ({ meta: [{ title: m.console_org_settings() }] }),
  staticData: { crumb: m.console_org_settings },
  component: OrganizationSettings,
})
