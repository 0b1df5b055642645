import { translateAppError } from '#/lib/errors'
import type { Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { readBodyBytes } from '../request-body'

/**
 * A refusal before any answer streams: `{ code, message }` in the person's language, which the chat shows. The message
 * is the code's own translation (lib/errors.ts, as for tRPC refusals) unless the endpoint has a more precise one.
 */
export function jsonRefusal(
  status: number,
  code: string,
  message: string = translateAppError(code) ?? m.error_code_INTERNAL_SERVER_ERROR(),
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

/** A language as a model's instructions name it. */
export const promptLanguageNames: Record<Locale, string> = { en: 'English', zh: 'Simplified Chinese' }

/** What the chat says when the provider fails; the cause goes to the server's log, never to the browser. */
export function providerFailureText(locale: Locale): string {
  return m.ai_provider_failed({}, { locale })
}

/** A JSON body of at most `maxBytes` (see readBodyBytes): undefined when it is not JSON; 'too-large' past the limit. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<{ value: unknown } | 'too-large'> {
  const bytes = await readBodyBytes(request, maxBytes)
  if (bytes === 'too-large') return 'too-large'
  if (bytes.byteLength === 0) return { value: undefined }
  try {
    return { value: JSON.parse(Buffer.from(bytes).toString('utf8')) }
  } catch {
    return { value: undefined }
  }
}
