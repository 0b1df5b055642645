import { createFileRoute } from '@tanstack/react-router'
import { getEnv } from '#/server/env'

export const Route = createFileRoute('/robots.txt')({
  server: {
    handlers: {
      GET: () =>
        new Response(`User-agent: *\nDisallow: /api/\nSitemap: ${getEnv().APP_URL}/sitemap.xml\n`, {
          headers: { 'Content-Type': 'text/plain; charset=utf-8' },
        }),
    },
  },
})
