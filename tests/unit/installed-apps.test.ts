// The list of installed apps (src/apps.ts) is what the shared places read: the files generated from it must say the
// same, every app it names must be a folder that declares itself under that name, and its routes must be mounted.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { installedApps } from '#/apps'
import { apps } from '#/apps.gen'
import { consoleApps } from '#/console-apps.gen'
import { serverApps } from '#/server/apps.gen'
import { appNeeds, generatedAppFiles, installedAppNames, readmeWithAppVariables } from '../../scripts/generate-apps'

describe('the installed apps', () => {
  it('are read from src/apps.ts as it lists them', () => {
    expect(installedAppNames()).toEqual([...installedApps])
  })

  it('have generated files that match the list (npm run build or npm run dev writes them)', () => {
    for (const [file, expected] of Object.entries(generatedAppFiles(installedApps))) {
      expect(readFileSync(path.resolve(file), 'utf8'), `${file} is out of date`).toBe(expected)
    }
  })

  it("list their own variables in README.md's table, and no other app's", () => {
    const readme = readFileSync(path.resolve('README.md'), 'utf8')
    expect(readme, 'README.md is out of date: npm run dev or npm run build writes it').toBe(
      readmeWithAppVariables(readme, installedApps),
    )
  })

  it('each declare themselves under the name the list gives them', () => {
    for (const manifest of [...apps, ...consoleApps, ...serverApps]) expect(installedApps).toContain(manifest.name)
    for (const app of installedApps) {
      expect(existsSync(path.resolve(`src/features/${app}`)), `src/features/${app}/`).toBe(true)
      expect(
        apps.map((a) => a.name),
        `src/features/${app}/app.ts declares the app`,
      ).toContain(app)
      if (existsSync(path.resolve(`src/features/${app}/console.ts`))) {
        expect(consoleApps.map((a) => a.name)).toContain(app)
      }
    }
  })

  it('need only installed apps, as the scripts and the import rules read the manifests', () => {
    for (const manifest of apps) {
      expect(appNeeds(manifest.name), `${manifest.name}'s needs, read from its text`).toEqual([
        ...(manifest.needs ?? []),
      ])
      for (const needed of manifest.needs ?? [])
        expect(installedApps, `${manifest.name} needs ${needed}`).toContain(needed)
    }
  })

  it('have their routes in the route tree', () => {
    const tree = readFileSync(path.resolve('src/routeTree.gen.ts'), 'utf8')
    for (const app of installedApps) {
      if (!existsSync(path.resolve(`src/features/${app}/routes`))) continue
      expect(tree, `src/features/${app}/routes is mounted`).toContain(`'./features/${app}/routes/`)
    }
  })
})
