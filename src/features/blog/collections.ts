// The blog's content collections, read by fumadocs-mdx through source.config.ts (which re-exports every installed
// app's collections.ts via src/collections.gen.ts): only collections may be exported from here.
import { defineDocs, frontmatterSchema } from 'fumadocs-mdx/config'
// Relative: fumadocs-mdx loads this file outside Vite's tsconfig paths, where #/ does not resolve.
import { z } from '../../lib/zod'

/** A blog post's or changelog entry's frontmatter: the docs' title and description, plus when, by whom, about what. */
const postSchema = frontmatterSchema.extend({
  date: z.coerce.date(),
  author: z.string().min(1),
  tags: z.array(z.string()).default([]),
})

/** `/{lang}/blog`: posts, `post.mdx` and `post.zh.mdx` side by side like the docs. */
export const blog = defineDocs({
  dir: 'src/features/blog/content/blog',
  docs: { schema: postSchema, postprocess: { includeProcessedMarkdown: true } },
})

/** `/{lang}/changelog`: one entry per release of a feature area. */
export const changelog = defineDocs({
  dir: 'src/features/blog/content/changelog',
  docs: { schema: postSchema, postprocess: { includeProcessedMarkdown: true } },
})
