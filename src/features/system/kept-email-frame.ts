/**
 * A kept email's HTML for the viewer's frame, with `<base target="_blank">` in its head: a link opens in a new tab,
 * as a mail client opens it, instead of loading the site inside the small sandboxed frame (where it could not run).
 * The base goes after the doctype, never before it, or the email would be drawn in quirks mode.
 */
export function keptEmailFrameDocument(html: string): string {
  const base = '<base target="_blank">'
  for (const opening of [/<head\b[^>]*>/i, /<html\b[^>]*>/i, /^\s*<!doctype[^>]*>/i]) {
    const found = opening.exec(html)
    if (found) {
      const at = found.index + found[0].length
      return `${html.slice(0, at)}${base}${html.slice(at)}`
    }
  }
  return `${base}${html}`
}

/** The plain-text version cut into text and web addresses, so the viewer can make each address a link. */
export function textWithLinks(text: string): { text: string; url?: string }[] {
  return text
    .split(/(https?:\/\/[^\s<>"]+)/)
    .filter((part) => part !== '')
    .map((part) => (/^https?:\/\//.test(part) ? { text: part, url: part } : { text: part }))
}
