import { createFileRoute, Outlet } from '@tanstack/react-router'
import { SiteFooter } from '#/features/landing/components/site-footer'
import { SiteHeader } from '#/features/landing/components/site-header'

export const Route = createFileRoute('/_home')({
  component: HomeLayout,
})

function HomeLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <div className="flex-1">
        <Outlet />
      </div>
      <SiteFooter />
    </div>
  )
}
