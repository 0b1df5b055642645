import { docs } from 'collections/server'
import { loader } from 'fumadocs-core/source'
import { lucideIconsPlugin } from 'fumadocs-core/source/plugins/lucide-icons'
import { appDocsSources } from '#/server/app-docs.gen'
import { docsBaseUrl, docsI18n } from '../config'

/**
 * Every docs page in both languages, compiled at build time (→ .source/): the core's (content/docs) and each installed
 * app's (src/features/<app>/docs), in one navigation. A page's `type` names its collection.
 */
export const docsSource = loader({
  source: { docs: docs.toFumadocsSource(), ...appDocsSources },
  baseUrl: docsBaseUrl,
  i18n: docsI18n,
  plugins: [lucideIconsPlugin()],
})

export type DocsPage = NonNullable<ReturnType<typeof docsSource.getPage>>
