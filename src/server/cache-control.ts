import { serverApps } from './apps.gen'

/** What an answer meant for one visitor says to every cache between it and them: keep nothing. */
export const personalCacheControl = 'private, no-store'

const alternatives = (names: readonly string[]) => names.map((name) => name.replace(/[^a-z0-9-]/g, '')).join('|')

// Screens that show or change one person's things, the core's and the installed apps' (my orders). The unprefixed
// forms only redirect, but the redirect's target depends on the visitor's language, so it is theirs too.
const personalPagePath = new RegExp(
  `^/(?:(?:en|zh)/)?(?:${alternatives([
    'console',
    'sign-in',
    'sign-up',
    'forgot-password',
    'reset-password',
    'magic-link',
    'two-factor',
    'verify-email',
    'accept-invitation',
    ...serverApps.flatMap((app) => app.personalPages ?? []),
  ])})(?:/|$)`,
)
// The product's data (tRPC), sessions and accounts (Better Auth), and the answers the MCP server, "Ask the docs" and
// the installed apps (the assistant) write for one caller.
const personalApiPath = new RegExp(
  `^/api/(?:${alternatives(['trpc', 'auth', 'mcp', 'ask-docs', ...serverApps.flatMap((app) => app.personalApis ?? [])])})(?:/|$)`,
)

export function isPersonalPath(pathname: string): boolean {
  return personalApiPath.test(pathname) || personalPagePath.test(pathname)
}

function forbidsSharedStorage(cacheControl: string): boolean {
  const directives = cacheControl.toLowerCase().split(',')
  let isPrivate = false
  let noStore = false
  for (const directive of directives) {
    const name = directive.trim()
    if (name === 'private') isPrivate = true
    else if (name === 'no-store') noStore = true
  }
  return isPrivate && noStore
}

/**
 * The Cache-Control an answer must carry instead of its own, or undefined to keep what it has. A personal answer
 * always says `private, no-store` (a weaker policy such as `public, max-age=60`, or none, is replaced). Any other
 * answer that states no policy was rendered for this request and may show who is signed in, so it is treated as
 * personal too; answers that chose their caching (pages kept for everyone, static files, the analytics script)
 * keep it.
 */
export function cacheControlFor(pathname: string, current: string | null): string | undefined {
  if (current === null) return personalCacheControl
  if (isPersonalPath(pathname) && !forbidsSharedStorage(current)) return personalCacheControl
  return undefined
}

/** The path of an absolute request URL, without building a URL object (this runs on every answer). */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return '/'
  let end = url.length
  const query = url.indexOf('?', start)
  if (query !== -1) end = query
  const fragment = url.indexOf('#', start)
  if (fragment !== -1 && fragment < end) end = fragment
  return url.slice(start, end)
}

/** The answer with the Cache-Control its request calls for (see cacheControlFor); immutable headers are copied. */
export function withCacheControl(request: Request, response: Response): Response {
  const wanted = cacheControlFor(pathOf(request.url), response.headers.get('cache-control'))
  if (wanted === undefined) return response
  try {
    response.headers.set('Cache-Control', wanted)
    return response
  } catch {
    // Response.redirect() and fetched answers have immutable headers: answer with a copy instead.
    const headers = new Headers(response.headers)
    headers.set('Cache-Control', wanted)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}
