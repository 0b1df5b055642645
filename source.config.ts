import { defineConfig } from 'fumadocs-mdx/config'
import { docsCollection } from './src/features/docs/docs-collection.ts'

// Each installed app's collections (its collections.ts, and its docs/ pages), so this file names none (docs/decisions/042).
export * from './src/collections.gen.ts'

/** The core's docs pages; each installed app's join them (src/features/docs/docs-collection.ts). */
export const docs = docsCollection('content/docs')

export default defineConfig({
  mdxOptions: {
    // Search indexes prose, headings and tables; a component's attributes (a card's href) are not content.
    remarkStructureOptions: { types: ['heading', 'paragraph', 'blockquote', 'tableCell'] },
    rehypeCodeOptions: {
      // github-dark's comments are too faint on our dark background (3.8:1); the default variant's read at 4.5:1 and up.
      themes: { light: 'github-light', dark: 'github-dark-default' },
    },
  },
})
