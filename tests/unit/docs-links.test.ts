// The docs' links between pages lead to pages that are there, whatever apps are removed: a core page links only core
// pages, an app's page only the core's, its own and those of the apps it needs (docs/decisions/042). A link to
// another app's page would 404 once that app is removed.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { installedApps } from '#/apps'
import installed from '../../scripts/installed-apps.cjs'

const root = path.resolve('.')

/** Every .mdx file under a folder, relative to it. */
function mdxFiles(folder: string): string[] {
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }) as string[]
  return files.filter((file) => file.endsWith('.mdx'))
}

/** A page's address under /docs: route groups `(name)` leave no segment, and `index` is its folder. */
function slugOf(file: string): string {
  const segments = file
    .replace(/(\.zh)?\.mdx$/, '')
    .split(path.sep)
    .filter((segment) => !/^\(.*\)$/.test(segment))
  if (segments.at(-1) === 'index') segments.pop()
  return segments.join('/')
}

/** Who owns each docs folder: the core, or an installed app. */
const folders = [
  { owner: 'core', folder: path.join(root, 'content/docs') },
  ...installedApps.map((app) => ({ owner: app as string, folder: path.join(root, 'src/features', app, 'docs') })),
].filter(({ folder }) => {
  try {
    return readdirSync(folder).length > 0
  } catch {
    return false
  }
})

const pageOwners = new Map<string, string>()
for (const { owner, folder } of folders) for (const file of mdxFiles(folder)) pageOwners.set(slugOf(file), owner)

/** The apps an app may link to: itself and the apps it needs, and theirs. */
function reachable(app: string, seen = new Set<string>()): Set<string> {
  if (seen.has(app)) return seen
  seen.add(app)
  for (const needed of installed.appNeeds(root, app)) reachable(needed, seen)
  return seen
}

describe('links between docs pages', () => {
  it('finds the pages and their links', () => {
    expect(pageOwners.get('configuration')).toBe('core')
    expect(pageOwners.size).toBeGreaterThan(20)
  })

  it('lead to a page that is there, and never to an app the linking page does not need', () => {
    const wrong: string[] = []
    for (const { owner, folder } of folders) {
      const allowed = owner === 'core' ? new Set(['core']) : new Set(['core', ...reachable(owner)])
      for (const file of mdxFiles(folder)) {
        const text = readFileSync(path.join(folder, file), 'utf8')
        for (const match of text.matchAll(/(?:\]\(|href=["'])\/docs\/([^)"'#?\s]*)/g)) {
          const slug = (match[1] ?? '').replace(/\/$/, '')
          const target = pageOwners.get(slug)
          const where = `${path.relative(root, path.join(folder, file))} → /docs/${slug}`
          if (target === undefined) wrong.push(`${where}: no such page`)
          else if (!allowed.has(target)) wrong.push(`${where}: a page of ${target}, which ${owner} does not need`)
        }
      }
    }
    expect(wrong).toEqual([])
  })
})
