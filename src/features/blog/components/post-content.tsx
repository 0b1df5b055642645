import browserCollections from 'collections/browser'
import defaultMdxComponents from 'fumadocs-ui/mdx'
import type { MDXComponents } from 'mdx/types'
import type { ComponentType } from 'react'

/**
 * Each post's compiled MDX is its own chunk, as the docs' pages are: the loader preloads it, so the server renders it
 * and the browser hydrates it without a second request. The docs' typography (`prose`) and code blocks.
 */
function PostBody({ MDX }: { MDX: ComponentType<{ components?: MDXComponents }> }) {
  return (
    <div className="prose max-w-none">
      <MDX components={defaultMdxComponents} />
    </div>
  )
}

export const postContent = {
  blog: browserCollections.blog.createClientLoader({ component: ({ default: MDX }) => <PostBody MDX={MDX} /> }),
  changelog: browserCollections.changelog.createClientLoader({
    component: ({ default: MDX }) => <PostBody MDX={MDX} />,
  }),
}
