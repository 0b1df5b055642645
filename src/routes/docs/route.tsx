import { createFileRoute, lazyRouteComponent, Outlet } from '@tanstack/react-router'

export const Route = createFileRoute('/docs')({
  component: Outlet,
  // Lazy, so the docs UI stays out of the bundle every other page loads; the router preloads it when needed.
  notFoundComponent: lazyRouteComponent(() => import('#/features/docs/components/docs-not-found'), 'DocsNotFound'),
})
