import { execFile } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { promisify } from 'node:util'
import { defineConfig, defineDocs } from 'fumadocs-mdx/config'

// Each installed app's collections (src/features/<app>/collections.ts), so this file names none (docs/decisions/042).
export * from './src/collections.gen.ts'

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
