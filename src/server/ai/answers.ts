import type { Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'

/** A refusal before any answer streams: `{ code, message }` in the person's language, which the chat shows. */
export function jsonRefusal(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  extra: Record<string, string> = {},
): Response {
  return Response.json({ code, message, ...extra }, { status, headers: { 'Cache-Control': 'no-store', ...headers } })
}

/**
 * The request comes from the app's own pages. The chat sends JSON with the session cookie; a page on another site
 * could post to it, so its Origin must be one the app trusts (the browser always sends Origin with a POST).
 */
export function sameOriginRequest(request: Request, trustedOrigins: string[]): boolean {
  const origin = request.headers.get('origin')
  return origin !== null && trustedOrigins.includes(origin)
}

/** What the chat says when the provider fails; the cause goes to the server's log, never to the browser. */
export function providerFailureText(locale: Locale): string {
  return m.ai_provider_failed({}, { locale })
}
