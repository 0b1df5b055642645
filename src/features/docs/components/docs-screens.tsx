import { Suspense } from 'react'
import { PageNotFound } from '#/components/status-screens'
import type { DocsPageInfo } from '../server/page-info'
import { docsContentOf } from './docs-content'
import { DocsShell } from './docs-shell'

type FoundPage = Extract<DocsPageInfo, { found: true }>

export function DocsPageScreen({ info }: { info: FoundPage }) {
  return (
    <DocsShell lang={info.lang} siteName={info.siteName} pageTree={info.pageTree} aiConfigured={info.aiConfigured}>
      {/* Keyed by collection: a page of another collection starts its boundary afresh. */}
      <Suspense key={info.collection}>
        <DocsPageContent info={info} />
      </Suspense>
    </DocsShell>
  )
}

function DocsPageContent({ info }: { info: FoundPage }) {
  return docsContentOf(info.collection).useContent(info.path, {
    editUrl: info.editUrl,
    lastUpdated: info.lastUpdated,
    showFooterNavigation: info.showFooterNavigation,
  })
}

/** An unknown docs page: the not-found message inside the docs layout (HTTP 404). */
export function DocsNotFoundScreen({ info }: { info: DocsPageInfo | undefined }) {
  if (!info) return <PageNotFound />
  return (
    <DocsShell lang={info.lang} siteName={info.siteName} pageTree={info.pageTree} aiConfigured={info.aiConfigured}>
      <div className="flex-1" data-testid="docs-not-found">
        <PageNotFound />
      </div>
    </DocsShell>
  )
}
