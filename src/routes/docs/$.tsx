import { createFileRoute } from '@tanstack/react-router'
import { DocsPageScreen } from '#/features/docs/components/docs-screens'
import { docsHead, loadDocsPage } from '#/features/docs/load-docs-page'

export const Route = createFileRoute('/docs/$')({
  loader: ({ params }) => loadDocsPage((params._splat ?? '').split('/').filter(Boolean)),
  head: ({ loaderData }) => docsHead(loaderData),
  component: () => <DocsPageScreen info={Route.useLoaderData()} />,
})
