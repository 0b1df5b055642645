// What the minimal kit must no longer show of the apps it was made without: their routes' paths, worked out from the
// names in each app's routes folder, and their messages.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const routeFile = /\.(ts|tsx)$/

/**
 * The paths an app's routes answer, laid out as src/routes is (src/app-routes.ts): `_home/blog/index.tsx` → /blog,
 * `console/assistant.tsx` → /console/assistant, `blog/rss[.]xml.ts` → /blog/rss.xml. Only the shortest prefixes are
 * kept, and a route that answers `/` itself is left out (the core's landing page is there).
 */
export function appRoutePaths(projectDir: string, app: string): string[] {
  const routes = path.join(projectDir, 'src/features', app, 'routes')
  if (!existsSync(routes)) return []
  const paths = readdirSync(routes, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && routeFile.test(entry.name))
    .map((entry) => routePath(path.relative(routes, path.join(entry.parentPath, entry.name))))
    .filter((route) => route !== '/')
    .sort((a, b) => a.length - b.length)
  const kept: string[] = []
  for (const route of paths)
    if (!kept.some((prefix) => route === prefix || route.startsWith(`${prefix}/`))) kept.push(route)
  return kept
}

function routePath(file: string): string {
  const segments = file
    .replace(routeFile, '')
    .split(path.sep)
    // Dots separate segments too (`receipts.$orderId.tsx`); `[.]` is a dot of the path itself.
    .flatMap((segment) => segment.replaceAll('[.]', '\0').split('.'))
    .map((segment) => segment.replaceAll('\0', '.'))
  const kept: string[] = []
  for (const segment of segments) {
    // A parameter: whatever follows depends on it, the prefix before it is the app's.
    if (segment.startsWith('$') || segment.startsWith('{')) break
    if (segment.startsWith('_') || segment.startsWith('(') || segment === 'index' || segment === 'route') continue
    kept.push(segment)
  }
  return `/${kept.join('/')}`
}

const messageUse = /\bm\.([A-Za-z_][A-Za-z0-9_]*)\b/g

function messagesUsedUnder(folder: string): Set<string> {
  if (!existsSync(folder)) return new Set()
  const used = new Set<string>()
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !routeFile.test(entry.name)) continue
    const file = path.join(entry.parentPath, entry.name)
    if (file.includes(`${path.sep}paraglide${path.sep}`)) continue
    for (const match of readFileSync(file, 'utf8').matchAll(messageUse)) used.add(match[1] ?? '')
  }
  return used
}

/**
 * Messages the removed apps used (read from the full project) that nothing left in the kit uses, but that its
 * message files still hold: they are shipped to translators and to the compiled message modules.
 */
export function leftoverMessages(fullProject: string, kit: string, apps: readonly string[]): string[] {
  const ownedByApps = new Set(
    apps.flatMap((app) => [...messagesUsedUnder(path.join(fullProject, 'src/features', app))]),
  )
  const stillUsed = new Set([
    ...messagesUsedUnder(path.join(kit, 'src')),
    ...messagesUsedUnder(path.join(kit, 'tests')),
  ])
  const held = Object.keys(JSON.parse(readFileSync(path.join(kit, 'messages/en.json'), 'utf8')) as object)
  return held.filter((key) => ownedByApps.has(key) && !stillUsed.has(key))
}
