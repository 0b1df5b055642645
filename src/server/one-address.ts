import { m } from '#/paraglide/messages'
import { metricsPath } from './metrics'
import { localeOfRequest } from './request-locale'

/**
 * Paths a monitor or a scraper reaches on an internal address (a container's IP, a pod's name, 127.0.0.1 on the
 * machine): answered on whatever host they were asked for.
 */
const anyHostPaths = new Set(['/api/health', metricsPath])

let appUrlParsed: { source: string; url: URL } | undefined
/** APP_URL is read on every request and does not change while the server runs: parsed once. */
function parsedAppUrl(appUrl: string): URL {
  if (appUrlParsed?.source !== appUrl) appUrlParsed = { source: appUrl, url: new URL(appUrl) }
  return appUrlParsed.url
}

/**
 * Whether a request came to another host than the public URL's. Only the host name is compared: cookies belong to a
 * host name whatever the port, and a proxy's X-Forwarded-Host (nginx's `$host`) carries no port. The request's URL
 * already names the forwarded host when TRUST_PROXY lets the server believe it (srvx's `trustProxy`).
 */
export function isOnOtherHost(requestUrl: URL, appUrl: URL): boolean {
  if (anyHostPaths.has(requestUrl.pathname)) return false
  return requestUrl.hostname.toLowerCase() !== appUrl.hostname.toLowerCase()
}

/**
 * Whether a request's Host header names APP_URL's host exactly (with its port unless the scheme's own), and a proxy's
 * X-Forwarded-Host, if any, the same host name: read before any URL is built, for the kept pages' lane
 * (src/server.ts). Stricter than isOnOtherHost, never looser: what it refuses takes the full way, which redirects.
 */
export function namesAppHost(host: string | undefined, forwardedHost: string | undefined, appUrl: string): boolean {
  const publicUrl = parsedAppUrl(appUrl)
  if (forwardedHost !== undefined && forwardedHost.toLowerCase() !== publicUrl.hostname) return false
  return host?.toLowerCase() === publicUrl.host
}

/**
 * The answer for a request on another host than the public URL's, in production; undefined when it is on the right one.
 * Sessions, emailed links and payment returns all use APP_URL, so a visitor who stayed on another name (127.0.0.1 for
 * localhost, www. for the bare domain) would be signed out half-way through a flow. A GET or HEAD, which nobody has
 * signed in for yet, is sent to the same path and query on APP_URL with a 308. Any other method is refused with 421
 * Misdirected Request: a redirect would make many clients drop the body or resend it as a GET.
 */
export function otherHostAnswer(request: Request, appUrl: string, url = new URL(request.url)): Response | undefined {
  const publicUrl = parsedAppUrl(appUrl)
  if (!isOnOtherHost(url, publicUrl)) return undefined
  if (request.method === 'GET' || request.method === 'HEAD') {
    // Joined as text, not resolved: a path such as //evil.example would resolve to another site.
    const location = `${publicUrl.origin}${url.pathname}${url.search}`
    // Not kept by the browser: a later change of APP_URL must not leave visitors sent to the old one.
    return new Response(null, { status: 308, headers: { Location: location, 'Cache-Control': 'no-store' } })
  }
  const locale = localeOfRequest(request)
  const message = m.error_other_address({ address: publicUrl.origin }, { locale })
  return Response.json(
    { code: 'MISDIRECTED_REQUEST', message },
    { status: 421, headers: { 'Cache-Control': 'no-store' } },
  )
}

const warnedHosts = new Set<string>()

/**
 * The development server answers every host (no redirect to get in the way of a phone on the LAN), but says once
 * per host which address the flows use, so a sign-in that ends signed out elsewhere is not a mystery.
 */
export function otherHostWarning(request: Request, appUrl: string): string | undefined {
  const url = new URL(request.url)
  if (!isOnOtherHost(url, parsedAppUrl(appUrl)) || warnedHosts.has(url.host) || warnedHosts.size > 100) return undefined
  warnedHosts.add(url.host)
  return `A request came to ${url.origin}, but the app's address is ${appUrl} (APP_URL): sign-in, emailed links and payments return there, so open ${appUrl} instead.`
}
