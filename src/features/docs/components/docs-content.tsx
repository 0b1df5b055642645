import browserCollections from 'collections/browser'
import { DocsBody, DocsDescription, DocsPage, DocsTitle, EditOnGitHub } from 'fumadocs-ui/layouts/docs/page'
import { appDocsCollections } from '#/app-docs.gen'
import { m } from '#/paraglide/messages'
import type { LastUpdated } from '../server/page-info'
import { AskDocsButton } from './ask-docs'
import { mdxComponents } from './mdx-components'

interface DocsContentProps {
  editUrl: string
  lastUpdated: LastUpdated | undefined
  showFooterNavigation: boolean
}

type CoreCollection = typeof browserCollections.docs
type CompiledPage = Parameters<Parameters<CoreCollection['createClientLoader']>[0]['component']>[0]

function docsPage({ toc, frontmatter, default: MDX }: CompiledPage, props: DocsContentProps) {
  return (
    <DocsPage
      toc={toc}
      full
      // Full width keeps the table of contents here; the popover (narrow screens) says "No Headings" when empty.
      tableOfContent={{ style: 'clerk', enabled: true }}
      tableOfContentPopover={{ style: 'clerk', enabled: true }}
      footer={{ enabled: props.showFooterNavigation }}
    >
      {/* The skip link's target (fumadocs keeps its own id on the page container). */}
      <DocsTitle id="main">{frontmatter.title}</DocsTitle>
      <DocsDescription>{frontmatter.description}</DocsDescription>
      <div className="-mt-4 mb-2 flex flex-wrap gap-2 not-prose">
        <AskDocsButton />
      </div>
      <DocsBody>
        <MDX components={mdxComponents} />
      </DocsBody>
      <div className="flex flex-wrap items-center justify-between gap-4 border-t pt-4">
        <EditOnGitHub href={props.editUrl}>{m.docs_edit_on_github()}</EditOnGitHub>
        {props.lastUpdated ? (
          <p className="text-sm text-fd-muted-foreground">
            {m.docs_last_updated_on()} <time dateTime={props.lastUpdated.date}>{props.lastUpdated.text}</time>
          </p>
        ) : null}
      </div>
    </DocsPage>
  )
}

/**
 * Each page's compiled MDX is its own chunk: loaders preload it (`docsContentOf(collection).preload(path)`) so the
 * server renders it and the browser hydrates it without a second request. Every collection compiles with the core's
 * options (docs-collection.ts): only the name in their types differs.
 */
const collections: Record<string, CoreCollection> = {
  docs: browserCollections.docs,
  ...(appDocsCollections as unknown as Record<string, CoreCollection>),
}
const loaders = new Map(
  Object.entries(collections).map(([name, collection]) => [
    name,
    collection.createClientLoader({ id: name, component: docsPage }),
  ]),
)

/** The loader of a collection's pages: the core's (`docs`) or an installed app's (src/app-docs.gen.ts). */
export function docsContentOf(collection: string) {
  const loader = loaders.get(collection)
  if (!loader) throw new Error(`No docs collection "${collection}"`)
  return loader
}
