import { createFileRoute } from '@tanstack/react-router'
import { llmsIndex } from '#/features/docs/server/llms'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'
import { getSiteSettings } from '#/server/settings'

export const Route = createFileRoute('/llms.txt')({
  server: {
    handlers: {
      GET: async () => {
        const { productName } = await getSiteSettings(getDb())
        return new Response(llmsIndex(productName, getEnv().APP_URL), {
          headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
        })
      },
    },
  },
})
