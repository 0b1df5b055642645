import { createFileRoute } from '@tanstack/react-router'
import { OrganizationSettings } from '#/features/organizations/components/organization-settings'
import { LogoPicker } from '#/features/uploads'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/')({
  head: () => ({ meta: [{ title: m.console_org_settings() }] }),
  staticData: { crumb: m.console_org_settings },
  component: OrganizationPage,
})

function OrganizationPage() {
  return <OrganizationSettings logoPicker={({ hasLogo }) => <LogoPicker hasLogo={hasLogo} />} />
}
