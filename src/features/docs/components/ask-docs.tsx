import { SparklesIcon } from 'lucide-react'
import { createContext, lazy, type ReactNode, Suspense, useContext, useMemo, useState } from 'react'
import { m } from '#/paraglide/messages'

interface AskDocs {
  /** Opens "Ask the docs", asking `question` at once when there is one. */
  ask: (question?: string) => void
}

const AskDocsContext = createContext<AskDocs | null>(null)

// The dialog and its chat load when someone first asks, not with every docs page.
const AskDocsDialog = lazy(() => import('./ask-docs-dialog'))

/** "Ask the docs" for every page of the docs layout: one dialog, opened from the search dialog or a page. */
export function AskDocsProvider({ aiConfigured, children }: { aiConfigured: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const [question, setQuestion] = useState<string>()
  // Nothing of the dialog is loaded until the first question.
  const [asked, setAsked] = useState(false)
  const value = useMemo<AskDocs>(
    () => ({
      ask: (text) => {
        setQuestion(text?.trim() || undefined)
        setAsked(true)
        setOpen(true)
      },
    }),
    [],
  )
  return (
    <AskDocsContext.Provider value={value}>
      {children}
      {asked ? (
        <Suspense fallback={null}>
          <AskDocsDialog open={open} onOpenChange={setOpen} aiConfigured={aiConfigured} initialQuestion={question} />
        </Suspense>
      ) : null}
    </AskDocsContext.Provider>
  )
}

export function useAskDocs(): AskDocs {
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
