import { createFileRoute } from '@tanstack/react-router'
import { postsLlmsSection } from '#/features/blog/server/posts'
import { llmsIndex } from '#/features/docs/server/llms'
import { getDb } from '#/server/db/database'
import { getEnv } from '#/server/env'
import { getSiteSettings } from '#/server/settings'

export const Route = createFileRoute('/llms.txt')({
  server: {
    handlers: {
      GET: async () => {
        const { productName } = await getSiteSettings(getDb())
        const appUrl = getEnv().APP_URL
        return new Response(`${llmsIndex(productName, appUrl)}\n${postsLlmsSection(appUrl)}`, {
          headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
        })
      },
    },
  },
})
