import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { reconcileBilling, replayBillingEvent } from './features/billing/server/operator-tasks'
import { seedBooks } from './features/books/server/book-seed'
import { paraglideMiddleware } from './paraglide/server'
import { setAppRole } from './server/auth/app-admins'
import { getDb } from './server/db/database'
import { getEnv } from './server/env'
import { redirectToLocalizedUrl } from './server/locale-redirect'
import { PageCache } from './server/page-cache'
import { closeServerResources, ensureServerReady } from './server/runtime'
import { getSiteSettings } from './server/settings'

const docsPagePath = /^\/(en|zh)\/docs(\/[\w\-/.()%]*)?$/
// Docs pages look the same to every visitor and change only with a build or a site setting.
const docsPages = new PageCache(1000)

function render(request: Request): Promise<Response> {
  // The router rewrites localized URLs itself, so the original request goes on (see paraglide's middleware docs).
  return paraglideMiddleware(request, () => handler.fetch(request))
}

export default createServerEntry({
  async fetch(request) {
    await ensureServerReady()
    const url = new URL(request.url)
    // Build assets are served from disk before this handler runs; one that is missing is simply missing.
    if (url.pathname.startsWith('/assets/')) return new Response('Not Found', { status: 404 })
    const redirect = await redirectToLocalizedUrl(request)
    if (redirect) return redirect
    if (
      request.method === 'GET' &&
      !url.search &&
      docsPagePath.test(url.pathname) &&
      !url.pathname.endsWith('.md') &&
      getEnv().NODE_ENV === 'production'
    ) {
      const { updatedAt } = await getSiteSettings(getDb())
      return docsPages.serve(`${url.pathname}|${updatedAt.getTime()}`, () => render(request))
    }
    return render(request)
  },
})

/** Used by the production server (scripts/serve.ts) to start and stop what the app holds. */
export const lifecycle = { ensureServerReady, closeServerResources, getEnv }

/** Operator tasks run from the command line against the app's database (scripts/admin.ts, scripts/seed.ts). */
export const operatorTasks = {
  setAppRole: (email: string, role: 'admin' | 'user') => setAppRole(getDb(), email, role),
  seedBooks: (count: number, organizationSlug?: string) => seedBooks(getDb(), count, organizationSlug),
  replayBillingEvent: (eventId: string) => replayBillingEvent(getDb(), eventId),
  reconcileBilling: () => reconcileBilling(getDb()),
}
