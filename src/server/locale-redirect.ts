import { locales, shouldRedirect } from '#/paraglide/runtime'

/** A path already in a locale's URL space: the URL names its locale, so there is nothing to redirect to. */
const localizedPath = new RegExp(`^/(?:${locales.join('|')})/`)

/**
 * A page request without a locale prefix gets a 307 to the prefixed URL; the locale comes from the `lang` cookie,
 * then Accept-Language, then en. /api, /_serverFn and /assets are excluded in scripts/i18n.ts and never redirected.
 */
export async function redirectToLocalizedUrl(
  request: Request,
  pathname = new URL(request.url).pathname,
): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
  // Most page requests: answered without paraglide's pattern matching (a few per cent of a cached page's cost).
  if (localizedPath.test(pathname)) return undefined
  const decision = await shouldRedirect({ request })
  if (!decision.shouldRedirect || !decision.redirectUrl) return undefined
  return new Response(null, {
    status: 307,
    headers: { Location: decision.redirectUrl.href, Vary: 'Accept-Language, Cookie' },
  })
}
