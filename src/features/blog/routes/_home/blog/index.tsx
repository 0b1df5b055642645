import { createFileRoute } from '@tanstack/react-router'
import { PostIndexScreen } from '#/features/blog/components/post-screens'
import { loadPostList, postListHead } from '#/features/blog/load-posts'

export const Route = createFileRoute('/_home/blog/')({
  loader: () => loadPostList('blog'),
  head: () => postListHead('blog'),
  component: () => <PostIndexScreen info={Route.useLoaderData()} />,
})
