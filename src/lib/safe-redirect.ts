/**
 * The `redirect` search parameter, when it is a path on this site; anything else (another host, a scheme,
 * protocol-relative `//evil`, backslash tricks, control characters) is ignored, so sign-in is no open redirect.
 */
export function safeRedirectPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return null
  const base = 'http://same-origin.invalid'
  try {
    const url = new URL(value, base)
    if (url.origin !== base) return null
    const path = `${url.pathname}${url.search}${url.hash}`
    // Normalising can make a path protocol-relative again (`/.//evil.com`, `/a/..//evil.com` → `//evil.com`), which a
    // browser would follow off the site: what goes out must pass the same checks as what came in.
    return path.startsWith('//') || path.includes('\\') ? null : path
  } catch {
    return null
  }
}
