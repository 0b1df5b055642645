import { getLocale } from '#/lib/i18n'
import { safeRedirectPath } from '#/lib/safe-redirect'
import { localizeHref } from '#/paraglide/runtime'

/**
 * Where to go once signed in: the `redirect` parameter when it is a path on this site, else the console.
 * A full page load, so every part of the page starts from the new session.
 */
export function goAfterSignIn(redirect: unknown) {
  window.location.assign(afterSignInPath(redirect))
}

/** The path to land on once signed in (also the callback of emailed sign-in links). */
export function afterSignInPath(redirect: unknown): string {
  return safeRedirectPath(redirect) ?? localizeHref('/console', { locale: getLocale() })
}

/** A link to another auth page that keeps the `redirect` parameter, so the visitor still ends up where they wanted. */
export function authPageHref(
  path: '/sign-in' | '/sign-up' | '/two-factor',
  redirect: string | undefined,
  email?: string,
): string {
  const search = new URLSearchParams({ ...(redirect ? { redirect } : {}), ...(email ? { email } : {}) }).toString()
  return `${localizeHref(path)}${search ? `?${search}` : ''}`
}
