import { type Locale, locales } from '#/lib/i18n'
import { extractLocaleFromRequest, isLocale } from '#/paraglide/runtime'

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
