import { createFileRoute, Outlet } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { PageNotFound } from '#/components/status-screens'
import { SiteFooter } from '#/features/landing/components/site-footer'
import { SiteHeader } from '#/features/landing/components/site-header'

export const Route = createFileRoute('/_home')({
  component: () => (
    <HomeFrame>
      <Outlet />
    </HomeFrame>
  ),
  // A page of this layout that says it does not exist keeps the header and footer around the message.
  notFoundComponent: () => (
    <HomeFrame>
      <PageNotFound />
    </HomeFrame>
  ),
})

function HomeFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <div className="flex-1">{children}</div>
      <SiteFooter />
    </div>
  )
}
