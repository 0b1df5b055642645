import { docs } from 'collections/server'
import { loader } from 'fumadocs-core/source'
import { lucideIconsPlugin } from 'fumadocs-core/source/plugins/lucide-icons'
import { docsBaseUrl, docsI18n } from '../config'

/** Every docs page in both languages, compiled at build time (content/docs → .source/). */
export const docsSource = loader({
  source: docs.toFumadocsSource(),
  baseUrl: docsBaseUrl,
  i18n: docsI18n,
  plugins: [lucideIconsPlugin()],
})

export type DocsPage = NonNullable<ReturnType<typeof docsSource.getPage>>
