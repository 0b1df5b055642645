import { execFile } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { promisify } from 'node:util'
import { defineConfig, defineDocs, frontmatterSchema } from 'fumadocs-mdx/config'
import { z } from 'zod'

const run = promisify(execFile)

/** "Last updated on": the file's last commit, or its modification time where there is no git history. */
async function lastModified(filePath: string): Promise<Date | null> {
  try {
    const { stdout } = await run('git', ['log', '-1', '--format=%cI', '--', filePath])
    if (stdout.trim()) return new Date(stdout.trim())
  } catch {
    // no git, or not a repository: fall back to the file system
  }
  return (await stat(filePath)).mtime
}

export const docs = defineDocs({
  dir: 'content/docs',
  docs: {
    lastModified,
    // The processed Markdown feeds /llms-full.txt and each page's .md URL.
    postprocess: { includeProcessedMarkdown: true },
  },
})

/** A blog post's or changelog entry's frontmatter: the docs' title and description, plus when, by whom, about what. */
const postSchema = frontmatterSchema.extend({
  date: z.coerce.date(),
  author: z.string().min(1),
  tags: z.array(z.string()).default([]),
})

/** `/{lang}/blog`: posts, `post.mdx` and `post.zh.mdx` side by side like the docs. */
export const blog = defineDocs({
  dir: 'content/blog',
  docs: { schema: postSchema, postprocess: { includeProcessedMarkdown: true } },
})

/** `/{lang}/changelog`: one entry per release of a feature area. */
export const changelog = defineDocs({
  dir: 'content/changelog',
  docs: { schema: postSchema, postprocess: { includeProcessedMarkdown: true } },
})

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
