import type { SerializedPageTree } from 'fumadocs-core/source/client'
import { deserializePageTree } from 'fumadocs-core/source/client'
import { DocsLayout } from 'fumadocs-ui/layouts/docs'
import {
  Sidebar,
  type SidebarProps,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from 'fumadocs-ui/layouts/docs/slots/sidebar'
import { RootProvider } from 'fumadocs-ui/provider/tanstack'
import { lazy, type ReactNode, startTransition, useEffect, useMemo, useState } from 'react'
import { LanguageMenu } from '#/components/language-menu'
import { ThemeMenu } from '#/components/theme-menu'
import type { Locale } from '#/lib/i18n'
import { docsBaseUrl } from '../config'
import { docsI18nProps } from '../ui-translations'
import { AskDocsProvider } from './ask-docs'
import { SidebarThemeSwitch } from './sidebar-theme-switch'

// Loaded when the search first opens, as fumadocs' own dialog is.
const DocsSearchDialog = lazy(() => import('./docs-search-dialog'))

/**
 * fumadocs' sidebar, except that on a phone its drawer (the whole page tree, closed and invisible) is drawn in the
 * background after the page has hydrated rather than in one go: drawn at once, it held a phone's main thread for a
 * quarter of a second right after the page appeared. A drawer opened before then is drawn at once. The server and
 * wider screens draw the sidebar as before.
 */
function DocsSidebar(props: SidebarProps) {
  const { mode, open } = useSidebar()
  const [drawerDrawn, setDrawerDrawn] = useState(false)
  const waiting = mode === 'drawer' && !open && !drawerDrawn
  useEffect(() => {
    // A transition renders in slices that let the browser answer a tap between them.
    if (waiting) startTransition(() => setDrawerDrawn(true))
  }, [waiting])
  return waiting ? null : <Sidebar {...props} />
}

const docsSidebarSlot = { provider: SidebarProvider, root: DocsSidebar, trigger: SidebarTrigger, useSidebar }

interface DocsShellProps {
  lang: Locale
  siteName: string
  pageTree: SerializedPageTree
  aiConfigured: boolean
  children: ReactNode
}

/**
 * The docs layout: sidebar with tabs (root folders), search with "Ask the docs", and the app's own language and
 * theme controls.
 * fumadocs' theme provider stays off: the app has one theme state (src/lib/theme.ts).
 */
export function DocsShell({ lang, siteName, pageTree, aiConfigured, children }: DocsShellProps) {
  // deserializePageTree rewrites its argument in place; the loader data must stay serializable (it is dehydrated
  // into the HTML and the server caches it), so it gets a copy.
  const tree = useMemo(() => deserializePageTree(structuredClone(pageTree)), [pageTree])
  return (
    <AskDocsProvider aiConfigured={aiConfigured}>
      <RootProvider
        theme={{ enabled: false }}
        i18n={docsI18nProps(lang)}
        search={{ preload: false, SearchDialog: DocsSearchDialog }}
      >
        <DocsLayout
          tree={tree}
          nav={{
            title: (
              <span data-testid="docs-site-title">
                {siteName} <span className="text-xs font-normal uppercase text-fd-muted-foreground">{lang}</span>
              </span>
            ),
            url: docsBaseUrl,
            children: (
              <div className="flex items-center">
                <LanguageMenu />
                <ThemeMenu />
              </div>
            ),
          }}
          sidebar={{ defaultOpenLevel: 1, collapsible: true }}
          themeSwitch={{ mode: 'light-dark-system' }}
          // One language switch, the app's own (in the nav), as on every other page.
          slots={{ themeSwitch: SidebarThemeSwitch, languageSelect: false, sidebar: docsSidebarSlot }}
        >
          {children}
        </DocsLayout>
      </RootProvider>
    </AskDocsProvider>
  )
}
