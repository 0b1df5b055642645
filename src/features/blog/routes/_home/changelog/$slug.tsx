import { createFileRoute } from '@tanstack/react-router'
import { PostScreen } from '#/features/blog/components/post-screens'
import { loadPost, postHead } from '#/features/blog/load-posts'

export const Route = createFileRoute('/_home/changelog/$slug')({
  loader: ({ params }) => loadPost('changelog', params.slug),
  head: ({ loaderData }) => postHead(loaderData),
  component: () => <PostScreen info={Route.useLoaderData()} />,
})
