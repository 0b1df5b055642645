import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { shouldRedirect } from './paraglide/runtime'
import { paraglideMiddleware } from './paraglide/server'
import { getEnv } from './server/env'
import { closeServerResources, ensureServerReady } from './server/runtime'

/** Page requests without a locale prefix go to the prefixed URL (cookie `lang`, then Accept-Language, then en). */
async function redirectToLocalizedUrl(request: Request): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
  const decision = await shouldRedirect({ request })
  if (!decision.shouldRedirect || !decision.redirectUrl) return undefined
  return new Response(null, {
    status: 307,
    headers: { Location: decision.redirectUrl.href, Vary: 'Accept-Language, Cookie' },
  })
}

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
