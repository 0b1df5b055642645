import { createFileRoute, Outlet } from '@tanstack/react-router'
import { DocsNotFoundScreen } from '#/features/docs/components/docs-screens'
import type { DocsPageInfo } from '#/features/docs/server/page-info'

export const Route = createFileRoute('/docs')({
  component: Outlet,
  notFoundComponent: ({ data }) => <DocsNotFoundScreen info={data as DocsPageInfo | undefined} />,
})
