import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash, randomBytes } from 'node:crypto'

/** What every answer's policy says, whatever it holds: nothing may frame the site, no plugins, no foreign <base>. */
export const framingPolicy = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'"

/** Google's one-tap library, loaded on the sign-in page when Google is set up. */
const googleOneTapScript = 'https://accounts.google.com/gsi/client'

const renderNonce = new AsyncLocalStorage<string>()

/**
 * Runs a page render with a fresh nonce that the router stamps on every inline script it writes (React's stream,
 * the router's state, the theme boot script): the answer's policy allows those scripts and no injected one.
 */
export function renderWithNonce<T>(render: (nonce: string) => T): T {
  const nonce = randomBytes(16).toString('base64')
  return renderNonce.run(nonce, () => render(nonce))
}

/** The nonce of the render in progress, or undefined outside one (a cached page carries hashes instead). */
export function currentRenderNonce(): string | undefined {
  return renderNonce.getStore()
}

interface ScriptSources {
  /** Allows Google's one-tap library (GOOGLE_CLIENT_ID is set). */
  googleOneTap: boolean
  /** Origins the installed apps allow while their services are configured (their manifests' `scriptSources`). */
  fromApps: readonly string[]
}

/** The policy of a page rendered for one request: same-origin files, and inline scripts that carry its nonce. */
export function policyWithNonce(nonce: string, sources: ScriptSources): string {
  return scriptPolicy([`'nonce-${nonce}'`], sources)
}

/**
 * The policy of a page kept and served to everyone: a nonce would repeat, so each inline script is allowed by the
 * hash of its exact text, computed once when the page is kept.
 */
export function policyWithHashes(html: string, sources: ScriptSources): string {
  const hashes = new Set<string>()
  for (const [, attributes = '', text = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes) || text.length === 0) continue
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`)
  }
  return scriptPolicy([...hashes], sources)
}

function scriptPolicy(inline: string[], sources: ScriptSources): string {
  const allowed = ["'self'", ...inline, ...(sources.googleOneTap ? [googleOneTapScript] : []), ...sources.fromApps]
  return `script-src ${allowed.join(' ')}; ${framingPolicy}`
}
