import { createFileRoute } from '@tanstack/react-router'
import { PostIndexScreen } from '#/features/blog/components/post-screens'
import { loadPostList, postListHead } from '#/features/blog/load-posts'

export const Route = createFileRoute('/_home/changelog/')({
  loader: () => loadPostList('changelog'),
  head: () => postListHead('changelog'),
  component: () => <PostIndexScreen info={Route.useLoaderData()} />,
})
