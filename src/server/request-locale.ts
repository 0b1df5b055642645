import { type Locale, locales } from '#/lib/i18n'
import { extractLocaleFromRequest, getServerAsyncLocalStorage, isLocale } from '#/paraglide/runtime'

/**
 * The language of the person behind an API call (e.g. sign-up): the page they sent it from (/zh/...), then the
 * lang cookie, then Accept-Language, then en. Used for emails, which have no URL of their own.
 */
export function localeOfRequest(request: Request | undefined): Locale {
  if (!request) return locales[0]
  const referer = request.headers.get('referer')
  if (referer) {
    try {
      const first = new URL(referer).pathname.split('/')[1]
      if (first && isLocale(first)) return first
    } catch {
      // not a URL: ignore
    }
  }
  return extractLocaleFromRequest(request)
}

/**
 * Runs `answer` with the request's language (localeOfRequest) as Paraglide's current one. Paraglide's middleware
 * leaves /api/* in the base locale; an API that answers in words (the MCP server's refusals) runs its work in this.
 */
export function inLocaleOfRequest<T>(request: Request, answer: () => Promise<T>): Promise<T> {
  const storage = getServerAsyncLocalStorage()
  if (!storage) return answer()
  const store = {
    locale: localeOfRequest(request),
    origin: new URL(request.url).origin,
    messageCalls: new Set<string>(),
  }
  return storage.run(store, answer)
}
