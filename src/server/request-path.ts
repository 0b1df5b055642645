import { m } from '#/paraglide/messages'
import { localeOfRequest } from './request-locale'

/**
 * Whether a request's path and query can be read as text, checked once at the edge (src/server.ts) before any route,
 * locale redirect or library sees them. Left to each route, a bad address meets each its own fate: TanStack Start
 * answers invalid percent-encoding with an empty 400 of its own, outside the app's logging; a NUL in a route parameter
 * reaches the database, which refuses it (a 500); Better Auth throws on a NUL in the query (a 500). One rule, one
 * answer: a 400 with the code INVALID_CHARACTERS.
 *
 * What cannot be read:
 * - percent-encoding that is not UTF-8 (`%C0%80`, a lone surrogate `%ED%A0%80`) or not an escape at all (`%zz`);
 * - a control character (U+0000-U+001F, U+007F) in the path, where no page or file name holds one;
 * - a NUL in the query. Other control characters stay allowed there: text someone typed (a search, tRPC's JSON input)
 *   may carry a tab or a line break, and the database stores those.
 */
export type UnreadableTarget = 'undecodable-path' | 'control-character-in-path' | 'undecodable-query' | 'nul-in-query'

function holdsControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/** Decodes percent-encoded UTF-8, or undefined when the text holds an escape that is not UTF-8 or not an escape. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/** What makes an absolute request URL unreadable, or null when its path and query can be read. */
export function unreadableRequestTarget(url: string): UnreadableTarget | null {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2)
  if (pathStart < 0) return null
  // The URL parser has already encoded every raw control character and space, so only escapes need a look.
  if (url.indexOf('%', pathStart) < 0) return null
  const queryStart = url.indexOf('?', pathStart)
  const hashStart = url.indexOf('#', pathStart)
  const pathEnd = queryStart >= 0 ? queryStart : hashStart >= 0 ? hashStart : url.length
  const path = decoded(url.slice(pathStart, pathEnd))
  if (path === undefined) return 'undecodable-path'
  if (holdsControlCharacter(path)) return 'control-character-in-path'
  if (queryStart < 0) return null
  const query = decoded(url.slice(queryStart + 1, hashStart > queryStart ? hashStart : url.length))
  if (query === undefined) return 'undecodable-query'
  return query.includes('\u0000') ? 'nul-in-query' : null
}

/**
 * The one answer for an address that cannot be read, whatever the route: a 400 with a code the client translates and
 * the text in the visitor's language. A page path gets it too, not a rendered page: no link of the app's makes such
 * an address, so whoever sent it is a script or a broken link, and the page's router is what must not see it.
 */
export function unreadableTargetAnswer(request: Request): Response {
  const message = m.error_code_INVALID_CHARACTERS({}, { locale: localeOfRequest(request) })
  return Response.json(
    { code: 'INVALID_CHARACTERS', message },
    { status: 400, headers: { 'Cache-Control': 'no-store' } },
  )
}
