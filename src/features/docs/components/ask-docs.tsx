import { useSearch } from 'fumadocs-ui/components/dialog/search'
import { SparklesIcon } from 'lucide-react'
import { createContext, lazy, type ReactNode, Suspense, useContext, useMemo, useState } from 'react'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { m } from '#/paraglide/messages'

interface AskDocs {
  /** Opens "Ask the docs", asking `question` at once when there is one. */
  ask: (question?: string) => void
}

const AskDocsContext = createContext<AskDocs | null>(null)

// The chat's code loads when someone first asks, not with every docs page.
const AskDocsPanel = lazy(() => import('./ask-docs-panel'))

/** "Ask the docs" for every page of the docs layout: one dialog, opened from the search dialog or a page. */
export function AskDocsProvider({ aiConfigured, children }: { aiConfigured: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const [question, setQuestion] = useState<string>()
  const value = useMemo<AskDocs>(
    () => ({
      ask: (asked) => {
        setQuestion(asked?.trim() || undefined)
        setOpen(true)
      },
    }),
    [],
  )
  return (
    <AskDocsContext.Provider value={value}>
      {children}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl" data-testid="ask-docs">
          <DialogTitle className="flex items-center gap-2">
            <SparklesIcon className="size-4" aria-hidden />
            {m.docs_ask_title()}
          </DialogTitle>
          <DialogDescription>{m.docs_ask_intro()}</DialogDescription>
          {open ? (
            <Suspense fallback={<div className="h-24 animate-pulse rounded-lg bg-muted" />}>
              <AskDocsPanel aiConfigured={aiConfigured} initialQuestion={question} />
            </Suspense>
          ) : null}
        </DialogContent>
      </Dialog>
    </AskDocsContext.Provider>
  )
}

function useAskDocs(): AskDocs {
  const context = useContext(AskDocsContext)
  if (!context) throw new Error('useAskDocs needs an AskDocsProvider (the docs layout has one)')
  return context
}

/** The "Ask AI" button on each docs page. */
export function AskDocsButton() {
  const { ask } = useAskDocs()
  return (
    <button
      type="button"
      onClick={() => ask()}
      className="inline-flex items-center gap-1.5 rounded-md border px-2.5 py-1.5 text-sm text-fd-muted-foreground transition-colors hover:bg-fd-accent hover:text-fd-accent-foreground"
    >
      <SparklesIcon className="size-3.5" aria-hidden />
      {m.docs_ask_button()}
    </button>
  )
}

/** In the search dialog's footer: ask the words typed so far, as a question, instead of searching them. */
export function AskDocsSearchEntry() {
  const { ask } = useAskDocs()
  const { search, onOpenChange } = useSearch()
  const question = search.trim()
  return (
    <button
      type="button"
      onClick={() => {
        onOpenChange(false)
        ask(question)
      }}
      className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-start text-sm text-fd-muted-foreground hover:bg-fd-accent hover:text-fd-accent-foreground"
    >
      <SparklesIcon className="size-4 shrink-0" aria-hidden />
      <span className="truncate">{question ? m.docs_ask_in_search({ query: question }) : m.docs_ask_button()}</span>
    </button>
  )
}
