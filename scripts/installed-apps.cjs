// The installed apps and what each needs, read from the files' text: the list (src/apps.ts) and each app's
// `needs: [...]` in src/features/<app>/app.ts (docs/decisions/042). Plain CommonJS, because the import rules
// (.dependency-cruiser.cjs) are generated from it when the linter loads them, before anything is compiled; the
// scripts use it too (generate-apps.ts, hatch.ts). tests/unit/installed-apps.test.ts checks it against the manifests.
const { existsSync, readFileSync } = require('node:fs')
const path = require('node:path')

const names = (text) => [...text.matchAll(/['"]([a-z][a-z0-9-]*)['"]/g)].map((match) => match[1])

/** The apps src/apps.ts lists (or this text of it). */
function installedAppNames(root, source = readFileSync(path.join(root, 'src/apps.ts'), 'utf8')) {
  const list = /export const installedApps = \[([^\]]*)\]/.exec(source)?.[1]
  if (list === undefined) throw new Error('src/apps.ts has no `export const installedApps = [...]`')
  return names(list)
}

/** The apps this app's manifest says it needs (imports). */
function appNeeds(root, app) {
  const manifest = path.join(root, 'src/features', app, 'app.ts')
  if (!existsSync(manifest)) return []
  const list = /\bneeds:\s*\[([^\]]*)\]/.exec(readFileSync(manifest, 'utf8'))?.[1]
  return list === undefined ? [] : names(list)
}

module.exports = { installedAppNames, appNeeds }
