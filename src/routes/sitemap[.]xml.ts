import { createFileRoute } from '@tanstack/react-router'
import { postPaths } from '#/features/blog/server/posts'
import { docsPaths } from '#/features/docs/server/llms'
import { getEnv } from '#/server/env'
import { renderSitemap } from '#/server/sitemap'

export const Route = createFileRoute('/sitemap.xml')({
  server: {
    handlers: {
      GET: () =>
        new Response(renderSitemap(getEnv().APP_URL, ['/', ...docsPaths(), ...postPaths()]), {
          headers: { 'Content-Type': 'application/xml; charset=utf-8' },
        }),
    },
  },
})
