import { createFileRoute } from '@tanstack/react-router'
import { docsPaths } from '#/features/docs/server/llms'
import { serverApps } from '#/server/apps.gen'
import { getEnv } from '#/server/env'
import { renderSitemap } from '#/server/sitemap'

export const Route = createFileRoute('/sitemap.xml')({
  server: {
    handlers: {
      GET: async () => {
        const appPaths = await Promise.all(serverApps.map((app) => app.sitemapPaths?.() ?? []))
        return new Response(renderSitemap(getEnv().APP_URL, ['/', ...docsPaths(), ...appPaths.flat()]), {
          headers: { 'Content-Type': 'application/xml; charset=utf-8' },
        })
      },
    },
  },
})
