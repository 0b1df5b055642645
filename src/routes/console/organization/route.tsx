import { createFileRoute, Outlet } from '@tanstack/react-router'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization')({
  staticData: { crumb: m.console_org_section },
  component: Outlet,
})
