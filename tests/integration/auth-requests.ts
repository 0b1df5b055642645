// How the integration tests talk to Better Auth: requests shaped the way a browser on this site sends them.
import { clientIpHeader } from '#/server/auth/auth'

process.env.BETTER_AUTH_SECRET ??= 'integration-test-secret-0123456789abcdef'

export const testOrigin = process.env.APP_URL ?? 'http://localhost:3000'

interface AuthHandler {
  handler(request: Request): Promise<Response>
}

export interface AuthRequestOptions {
  /** Sent as JSON; a request with a body is a POST unless `method` says otherwise. */
  body?: unknown
  method?: 'GET' | 'POST'
  cookie?: string
  /** The client address, which the app server sets from the socket; rate limits count per address. */
  ip?: string
  headers?: Record<string, string>
}

/** A request to /api/auth{path} from this site's origin. */
export function authRequest(auth: AuthHandler, path: string, options: AuthRequestOptions = {}): Promise<Response> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST')
  return auth.handler(
    new Request(`${testOrigin}/api/auth${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        origin: testOrigin,
        [clientIpHeader]: options.ip ?? '198.51.100.1',
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
      body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
    }),
  )
}

/** The `code` of an error answer (Better Auth's, or the app's own). */
export const errorCodeOf = async (response: Response) => ((await response.json()) as { code?: string }).code

/** The cookies a response sets that still hold a value (cleared ones come empty), as a Cookie header. */
export const cookieHeaderOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] ?? '')
    .filter((pair) => !pair.endsWith('='))
    .join('; ')
