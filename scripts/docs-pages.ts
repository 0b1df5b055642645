import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'

/**
 * The locale-free URL of every docs page in a folder laid out like content/docs (an app's docs/ folder too): (group)
 * folders add nothing to a URL and `index` is its folder's page.
 */
export function docsPageUrls(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.mdx') && !/\.[a-z]{2}\.mdx$/.test(entry.name))
    .map((entry) => {
      const segments = path
        .relative(folder, path.join(entry.parentPath, entry.name))
        .replace(/\.mdx$/, '')
        .split(path.sep)
        .filter((segment) => !/^\(.*\)$/.test(segment))
      if (segments.at(-1) === 'index') segments.pop()
      return ['/docs', ...segments].join('/')
    })
    .sort()
}
