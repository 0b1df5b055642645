// The route tree's shape, given to TanStack Router's generator by vite.config.ts (tanstackStart({ router })). Paths are
// relative to src/routes. The core's routes stay plain file routes in src/routes; each installed app's
// src/features/<app>/routes/ is mounted at the same root and laid out like src/routes: its `_home/blog/index.tsx`
// sits under the core's `_home` layout, its `blog/rss[.]xml.ts` answers /blog/rss.xml. Two files claiming one path
// stop the generator with both names.
import { existsSync } from 'node:fs'
import { physical, rootRoute } from '@tanstack/virtual-file-routes'
import { installedApps } from './apps.ts'

const features = new URL('./features/', import.meta.url)

for (const app of installedApps) {
  if (!existsSync(new URL(`${app}/`, features))) {
    throw new Error(`src/apps.ts names "${app}", but there is no src/features/${app}/ folder`)
  }
}

export const appRoutes = rootRoute('__root.tsx', [
  physical('', '.'),
  ...installedApps
    .filter((app) => existsSync(new URL(`${app}/routes/`, features)))
    .map((app) => physical('', `../features/${app}/routes`)),
])
