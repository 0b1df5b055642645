import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, type UIMessage } from 'ai'
import { ArrowUpIcon, FileTextIcon, SparklesIcon, SquareIcon } from 'lucide-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import { AiNotConfigured } from '#/components/ai-not-configured'
import { CopyButton, MarkdownText } from '#/components/markdown'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { aiRefusalOf } from '#/lib/ai-refusal'
import { getLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { askDocsLimits } from '../schemas'

function Answer({ message }: { message: UIMessage }) {
  const text = message.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('')
    .trim()
  const sources = message.parts.flatMap((part) => (part.type === 'source-url' ? [part] : []))
  return (
    <div className="grid gap-3" data-testid="ask-docs-answer">
      {text ? <MarkdownText>{text}</MarkdownText> : null}
      {sources.length > 0 ? (
        <div className="grid gap-1">
          <p className="text-xs font-medium tracking-wide text-fd-muted-foreground uppercase">{m.docs_ask_sources()}</p>
          <ul className="grid gap-1" data-testid="ask-docs-sources">
            {sources.map((source) => (
              <li key={source.sourceId}>
                <a
                  href={source.url}
                  className="inline-flex items-center gap-1.5 text-sm text-primary underline underline-offset-4"
                >
                  <FileTextIcon className="size-3.5" aria-hidden />
                  {source.title ?? source.url}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {text ? (
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-xs text-fd-muted-foreground">{m.docs_ask_disclaimer()}</p>
          <CopyButton text={text} label={m.assistant_copy()} className="h-7 text-xs" />
        </div>
      ) : null}
    </div>
  )
}

/** One question at a time, answered from the docs as it is written, with the pages it used. */
function AskDocsPanel({
  aiConfigured,
  initialQuestion,
}: {
  aiConfigured: boolean
  initialQuestion: string | undefined
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: '/api/ask-docs',
        prepareSendMessagesRequest: ({ messages }) => {
          const last = messages.at(-1)
          const question = last?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('') ?? ''
          return { body: { question, locale: getLocale() } }
        },
      }),
    [],
  )
  const { messages, sendMessage, setMessages, status, stop, error, clearError } = useChat({ transport })
  const [draft, setDraft] = useState(initialQuestion ?? '')
  const busy = status === 'submitted' || status === 'streaming'
  const asked = useRef(false)

  const ask = (question: string) => {
    const trimmed = question.trim()
    if (!trimmed || busy) return
    clearError()
    // Each question stands alone: the answer is written from the docs, not from an earlier answer.
    setMessages([])
    void sendMessage({ text: trimmed })
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: asks the question it was opened with, once
  useEffect(() => {
    if (aiConfigured && initialQuestion && !asked.current) {
      asked.current = true
      ask(initialQuestion)
    }
  }, [])

  if (!aiConfigured) return <AiNotConfigured />
  const answer = messages.findLast((message) => message.role === 'assistant')
  return (
    <div className="grid gap-4">
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault()
          ask(draft)
        }}
      >
        <label className="grid flex-1 gap-1 text-sm">
          <span className="sr-only">{m.docs_ask_label()}</span>
          <input
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            maxLength={askDocsLimits.questionMax}
            placeholder={m.docs_ask_placeholder()}
            aria-label={m.docs_ask_label()}
            className="h-9 rounded-md border bg-transparent px-3 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          />
        </label>
        {busy ? (
          <Button type="button" variant="outline" onClick={() => void stop()}>
            <SquareIcon aria-hidden />
            {m.assistant_stop()}
          </Button>
        ) : (
          <Button type="submit" disabled={!draft.trim()}>
            <ArrowUpIcon aria-hidden />
            {m.docs_ask_submit()}
          </Button>
        )}
      </form>
      {status === 'submitted' ? <p className="text-sm text-fd-muted-foreground">{m.assistant_thinking()}</p> : null}
      {answer ? <Answer message={answer} /> : null}
      {error ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm">
          {aiRefusalOf(error).message}
        </p>
      ) : null}
    </div>
  )
}

/** "Ask the docs" as a dialog; a question it was opened with is asked at once. */
export default function AskDocsDialog({
  open,
  onOpenChange,
  aiConfigured,
  initialQuestion,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  aiConfigured: boolean
  initialQuestion: string | undefined
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl" data-testid="ask-docs">
        <DialogTitle className="flex items-center gap-2">
          <SparklesIcon className="size-4" aria-hidden />
          {m.docs_ask_title()}
        </DialogTitle>
        <DialogDescription>{m.docs_ask_intro()}</DialogDescription>
        {open ? <AskDocsPanel aiConfigured={aiConfigured} initialQuestion={initialQuestion} /> : null}
      </DialogContent>
    </Dialog>
  )
}
