import { getLocale } from '#/lib/i18n'
import { safeRedirectPath } from '#/lib/safe-redirect'
import { localizeHref } from '#/paraglide/runtime'

/**
 * Where to go once signed in: the `redirect` parameter when it is a path on this site, else the console.
 * A full page load, so every part of the page starts from the new session.
 */
export function goAfterSignIn(redirect: unknown) {
  const target = safeRedirectPath(redirect) ?? localizeHref('/console', { locale: getLocale() })
  window.location.assign(target)
}

/** A link to another auth page that keeps the `redirect` parameter, so the visitor still ends up where they wanted. */
export function authPageHref(path: '/sign-in' | '/sign-up', redirect: string | undefined): string {
  return `${localizeHref(path)}${redirect ? `?${new URLSearchParams({ redirect })}` : ''}`
}
