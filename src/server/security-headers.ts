import { framingPolicy } from './content-security-policy'

/**
 * Headers every answer carries, pages, API and static files alike (issue 12). The Content-Security-Policy here is
 * the part that holds for any answer; pages set their own, which adds the scripts they may run
 * (content-security-policy.ts), and a header an answer set itself is kept. Named in lower case, as HTTP/2 sends them
 * and as the answers written straight to Node (kept pages, the session answer) need them.
 */
export function securityHeaders(options: { https: boolean }): [string, string][] {
  const headers: [string, string][] = [
    ['content-security-policy', framingPolicy],
    ['x-frame-options', 'DENY'],
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    // Powerful features the product never uses; WebAuthn (passkeys) keeps its default of this origin only. Only
    // features Chromium knows: an unknown one is a console warning on every page (Web Bluetooth has no policy name).
    ['permissions-policy', 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), interest-cohort=()'],
    // Sign-in with a provider may use a popup that reports back to this window.
    ['cross-origin-opener-policy', 'same-origin-allow-popups'],
  ]
  // Over plain HTTP the header is ignored by browsers, and on localhost it would pin the port to HTTPS for a year.
  if (options.https) headers.push(['strict-transport-security', 'max-age=63072000; includeSubDomains'])
  return headers
}

/** The answer with the security headers added (kept where a route set its own); immutable headers are copied. */
export function withSecurityHeaders(response: Response, headers: readonly [string, string][]): Response {
  let target = response
  try {
    for (const [name, value] of headers) if (!target.headers.has(name)) target.headers.set(name, value)
  } catch {
    // Response.redirect() and fetched answers have immutable headers: answer with a copy instead.
    target = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: new Headers(response.headers),
    })
    for (const [name, value] of headers) if (!target.headers.has(name)) target.headers.set(name, value)
  }
  return target
}
