import { notFound } from '@tanstack/react-router'
import { getLocale } from '#/lib/i18n'
import { docs_page_title } from '#/paraglide/messages'
import { fetchDocsPage } from './docs-page-fn'
import type { DocsPageInfo } from './server/page-info'

/** Both docs routes: page info from the server function, then the page's compiled content, before rendering. */
export async function loadDocsPage(slugs: string[]) {
  const info = await fetchDocsPage({ data: { slugs, lang: getLocale() } })
  // The docs layout (routes/docs/route.tsx) shows the not-found screen; the page tree travels with it.
  if (!info.found) throw notFound({ data: info })
  // Loaders are part of the route tree every page loads: the docs UI itself stays out of it until a docs page needs it.
  const { docsContentOf } = await import('./components/docs-content')
  await docsContentOf(info.collection).preload(info.path)
  return info
}

export function docsHead(info: DocsPageInfo | undefined) {
  if (!info?.found) return {}
  return {
    meta: [
      { title: docs_page_title({ page: info.title, site: info.siteName }) },
      ...(info.description ? [{ name: 'description', content: info.description }] : []),
    ],
  }
}
