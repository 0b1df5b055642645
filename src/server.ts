import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { paraglideMiddleware } from './paraglide/server'
import { getEnv } from './server/env'
import { redirectToLocalizedUrl } from './server/locale-redirect'
import { closeServerResources, ensureServerReady } from './server/runtime'

export default createServerEntry({
  async fetch(request) {
    await ensureServerReady()
    // Build assets are served from disk before this handler runs; one that is missing is simply missing.
    if (new URL(request.url).pathname.startsWith('/assets/')) return new Response('Not Found', { status: 404 })
    const redirect = await redirectToLocalizedUrl(request)
    if (redirect) return redirect
    // The router rewrites localized URLs itself, so the original request goes on (see paraglide's middleware docs).
    return paraglideMiddleware(request, () => handler.fetch(request))
  },
})

/** Used by the production server (scripts/serve.ts) to start and stop what the app holds. */
export const lifecycle = { ensureServerReady, closeServerResources, getEnv }
