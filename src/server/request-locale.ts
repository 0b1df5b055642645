import { AsyncLocalStorage } from 'node:async_hooks'
import { type Locale, locales } from '#/lib/i18n'
import {
  extractLocaleFromRequest,
  getServerAsyncLocalStorage,
  isLocale,
  overwriteServerAsyncLocalStorage,
} from '#/paraglide/runtime'

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
  return inLocale(localeOfRequest(request), new URL(request.url).origin, answer)
}

/**
 * Runs `work` with `locale` as Paraglide's current one. A streamed answer runs part of its work after the handler
 * has returned (tools, the end of the stream), so such work enters the locale again itself.
 */
export function inLocale<T>(locale: Locale, origin: string, work: () => Promise<T>): Promise<T> {
  let storage = getServerAsyncLocalStorage()
  if (!storage) {
    // Paraglide's middleware makes its storage on the first page it renders; an API call may come first.
    storage = new AsyncLocalStorage()
    overwriteServerAsyncLocalStorage(storage)
  }
  return storage.run({ locale, origin, messageCalls: new Set<string>() }, work)
}
