import { createFileRoute } from '@tanstack/react-router'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'
import { securityTxt } from '#/server/security-txt'
import { getSiteSettings } from '#/server/settings'

export const Route = createFileRoute('/.well-known/security.txt')({
  server: {
    handlers: {
      GET: async () => {
        const { sourceRepositoryUrl } = await getSiteSettings(getDb())
        return new Response(securityTxt({ appUrl: getEnv().APP_URL, sourceRepositoryUrl, now: new Date() }), {
          // The same for everyone; an hour keeps a changed repository setting from lingering.
          headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
        })
      },
    },
  },
})
