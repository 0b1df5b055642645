// How a folder of docs pages is compiled, the core's (content/docs) and each installed app's
// (src/features/<app>/docs), so that an app's pages go with it (docs/decisions/042). Loaded by fumadocs-mdx through
// source.config.ts, outside Vite: relative imports only.
import { execFile } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { promisify } from 'node:util'
import { defineDocs } from 'fumadocs-mdx/config'

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

/**
 * A folder of docs pages laid out like content/docs: its (guide) and (operations) folders join the core's in one
 * navigation, where the core's meta.json leaves a place (`...`) for pages it does not name.
 */
export function docsCollection(dir: string) {
  return defineDocs({
    dir,
    docs: {
      lastModified,
      // The processed Markdown feeds /llms-full.txt and each page's .md URL.
      postprocess: { includeProcessedMarkdown: true },
    },
  })
}
