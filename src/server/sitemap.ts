import { locales } from '#/paraglide/runtime'

/** Text as XML character data or an attribute value. */
export const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[char]};`)

/** sitemap.xml: every page in every language, each listing its alternates (hreflang) and an x-default. */
export function renderSitemap(appUrl: string, paths: string[]): string {
  const localized = (lang: string, path: string) => escapeXml(`${appUrl}/${lang}${path === '/' ? '/' : path}`)
  const urls = paths.flatMap((path) =>
    locales.map((lang) => {
      const alternates = locales
        .map((other) => `    <xhtml:link rel="alternate" hreflang="${other}" href="${localized(other, path)}"/>`)
        .join('\n')
      return `  <url>\n    <loc>${localized(lang, path)}</loc>\n${alternates}\n    <xhtml:link rel="alternate" hreflang="x-default" href="${localized(locales[0], path)}"/>\n  </url>`
    }),
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`
}
