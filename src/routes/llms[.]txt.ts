import { createFileRoute } from '@tanstack/react-router'
import { llmsIndex } from '#/features/docs/server/llms'
import { serverApps } from '#/server/apps.gen'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'
import { getSiteSettings } from '#/server/settings'

export const Route = createFileRoute('/llms.txt')({
  server: {
    handlers: {
      GET: async () => {
        const { productName } = await getSiteSettings(getDb())
        const appUrl = getEnv().APP_URL
        const sections = await Promise.all(serverApps.map((app) => app.llmsSection?.(appUrl)))
        const text = [llmsIndex(productName, appUrl), ...sections.filter((section) => section !== undefined)]
        return new Response(text.join('\n'), {
          headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
        })
      },
    },
  },
})
