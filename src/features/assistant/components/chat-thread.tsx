import { useChat } from '@ai-sdk/react'
import { useQueryClient } from '@tanstack/react-query'
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai'
import { ArrowUpIcon, RotateCcwIcon, SparklesIcon, SquareIcon } from 'lucide-react'
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react'
import { CopyButton, MarkdownText } from '#/components/markdown'
import { PlanLimitReached, usePlanLimit } from '#/components/plan-limit-notice'
import { Button } from '#/components/ui/button'
import { consoleApps } from '#/console-apps.gen'
import { aiRefusalOf } from '#/lib/ai-refusal'
import { getLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { assistantLimits } from '../schemas'
import { isToolPart, ToolCall } from './tool-call'

const textOf = (message: UIMessage) =>
  message.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n\n')
    .trim()

function MessageView({
  message,
  isLast,
  busy,
  onAnswer,
  onRetry,
}: {
  message: UIMessage
  isLast: boolean
  busy: boolean
  onAnswer: (approvalId: string, approved: boolean) => void
  onRetry: () => void
}) {
  if (message.role === 'user') {
    return (
      <li className="flex justify-end" data-testid="message-user">
        <p className="sr-only">{m.assistant_you()}</p>
        <div className="max-w-[85%] rounded-2xl bg-primary px-4 py-2 text-sm whitespace-pre-wrap text-primary-foreground">
          {textOf(message)}
        </div>
      </li>
    )
  }
  const text = textOf(message)
  return (
    <li className="grid gap-2" data-testid="message-assistant">
      <p className="sr-only">{m.assistant_name()}</p>
      {message.parts.map((part, index) => {
        if (part.type === 'text') {
          // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts only ever grow at the end
          return <MarkdownText key={index}>{part.text}</MarkdownText>
        }
        if (isToolPart(part)) return <ToolCall key={part.toolCallId} part={part} onAnswer={onAnswer} />
        return null
      })}
      {!busy || !isLast ? (
        <div className="flex gap-1 text-muted-foreground">
          {text ? <CopyButton text={text} label={m.assistant_copy()} className="h-7 text-xs" /> : null}
          {isLast ? (
            <Button type="button" variant="ghost" size="sm" className="h-7 text-xs" onClick={onRetry}>
              <RotateCcwIcon aria-hidden />
              {m.assistant_retry()}
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  )
}

/**
 * One conversation: the answer streams in as it is written, Stop ends it, Retry asks again, and a tool that writes
 * waits for the person's confirmation. The server keeps the conversation; this sends only the newest message.
 */
export function ChatThread({
  conversationId,
  initialMessages,
  onAnswered,
}: {
  conversationId: string
  initialMessages: UIMessage[]
  /** After each answer is stored (the list of conversations changes). */
  onAnswered: () => void
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: '/api/assistant',
        prepareSendMessagesRequest: ({ id, messages }) => ({
          body: { id, locale: getLocale(), message: messages.at(-1) },
        }),
      }),
    [],
  )
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const { messages, sendMessage, status, stop, error, regenerate, addToolApprovalResponse, clearError } = useChat({
    id: conversationId,
    messages: initialMessages,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: ({ message, isAbort, isError }) => {
      if (isAbort) setStoppedId(message.id)
      if (!isError) onAnswered()
      // Each answer counts against the month's allowance: what is left is read again.
      void queryClient.invalidateQueries({ queryKey: trpc.organizations.planLimits.queryKey() })
    },
  })
  const [draft, setDraft] = useState('')
  const aiUsedUp = Boolean(usePlanLimit('aiRequests')?.reached)
  const [stoppedId, setStoppedId] = useState<string>()
  const busy = status === 'submitted' || status === 'streaming'
  const endRef = useRef<HTMLDivElement>(null)
  const lastText = messages.at(-1) ? textOf(messages.at(-1) as UIMessage).length : 0
  // Keeps the newest words in view while they arrive (a person who scrolled up to read is followed only on send).
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the conversation's length and the newest text
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' })
  }, [messages.length, lastText])

  const send = (text: string) => {
    const trimmed = text.trim()
    if (!trimmed || busy) return
    clearError()
    setStoppedId(undefined)
    void sendMessage({ text: trimmed })
    setDraft('')
  }
  const refusal = error ? aiRefusalOf(error) : undefined
  const stopped = !busy && stoppedId !== undefined && messages.at(-1)?.id === stoppedId

  const retry = () => {
    clearError()
    void regenerate()
  }

  return (
    <div className="flex min-h-[60vh] flex-col gap-4">
      {messages.length === 0 ? (
        <EmptyThread onSuggestion={send} />
      ) : (
        <ol className="grid gap-5" aria-live="polite" aria-busy={busy} data-testid="messages">
          {messages.map((message, index) => (
            <MessageView
              key={message.id}
              message={message}
              isLast={index === messages.length - 1}
              busy={busy}
              onAnswer={(id, approved) => addToolApprovalResponse({ id, approved })}
              onRetry={retry}
            />
          ))}
        </ol>
      )}
      {status === 'submitted' ? (
        <p className="text-sm text-muted-foreground" data-testid="assistant-thinking">
          {m.assistant_thinking()}
        </p>
      ) : null}
      {stopped ? <p className="text-sm text-muted-foreground">{m.assistant_stopped()}</p> : null}
      {refusal ? <RefusalNotice refusal={refusal} onRetry={retry} /> : null}
      <div ref={endRef} />
      <PlanLimitReached name="aiRequests" id="assistant-limit" />
      <MessageComposer
        draft={draft}
        onDraftChange={setDraft}
        busy={busy}
        aiUsedUp={aiUsedUp}
        onSend={() => send(draft)}
        onStop={() => void stop()}
      />
    </div>
  )
}

const appSuggestions = consoleApps.flatMap((app) => app.assistantSuggestions ?? [])

/** A new conversation: what the assistant is for, and questions to start with (the installed apps', the docs'). */
function EmptyThread({ onSuggestion }: { onSuggestion: (text: string) => void }) {
  return (
    <div className="grid place-items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center">
      <SparklesIcon className="size-8 text-muted-foreground" aria-hidden />
      <h2 className="font-semibold">{m.assistant_empty_title()}</h2>
      <p className="max-w-md text-sm text-muted-foreground">{m.assistant_empty_body()}</p>
      <div className="flex flex-wrap justify-center gap-2">
        {[...appSuggestions.map((suggestion) => suggestion()), m.assistant_suggestion_docs()].map((suggestion) => (
          <Button key={suggestion} type="button" variant="outline" size="sm" onClick={() => onSuggestion(suggestion)}>
            {suggestion}
          </Button>
        ))}
      </div>
    </div>
  )
}

/** Why the answer failed; a plan's used-up allowance offers the upgrade instead of a retry that would fail again. */
function RefusalNotice({ refusal, onRetry }: { refusal: ReturnType<typeof aiRefusalOf>; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
      data-testid="assistant-error"
    >
      <span>{refusal.message}</span>
      {refusal.upgradeUrl ? (
        <a className="font-medium underline underline-offset-4" href={refusal.upgradeUrl}>
          {m.plan_limit_upgrade()}
        </a>
      ) : (
        <Button type="button" size="sm" variant="outline" onClick={onRetry}>
          <RotateCcwIcon aria-hidden />
          {m.assistant_retry()}
        </Button>
      )}
    </div>
  )
}

/** Where the next message is written: Enter sends, Shift+Enter starts a new line, Stop ends an answer being written. */
function MessageComposer({
  draft,
  onDraftChange,
  busy,
  aiUsedUp,
  onSend,
  onStop,
}: {
  draft: string
  onDraftChange: (draft: string) => void
  busy: boolean
  aiUsedUp: boolean
  onSend: () => void
  onStop: () => void
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Not while an input method is composing: its Enter picks the characters.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      onSend()
    }
  }
  return (
    <form
      className="sticky bottom-0 mt-auto flex items-end gap-2 rounded-xl border bg-background p-2 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault()
        onSend()
      }}
    >
      <label htmlFor="assistant-input" className="sr-only">
        {m.assistant_input_label()}
      </label>
      <textarea
        id="assistant-input"
        value={draft}
        onChange={(event) => onDraftChange(event.target.value)}
        onKeyDown={onKeyDown}
        rows={2}
        maxLength={assistantLimits.messageMax}
        placeholder={m.assistant_input_placeholder()}
        aria-describedby="assistant-input-hint"
        className="max-h-48 min-h-10 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm outline-none placeholder:text-muted-foreground"
      />
      <span id="assistant-input-hint" className="sr-only">
        {m.assistant_input_hint()}
      </span>
      {busy ? (
        <Button type="button" variant="outline" size="sm" onClick={onStop}>
          <SquareIcon aria-hidden />
          {m.assistant_stop()}
        </Button>
      ) : (
        <Button
          type="submit"
          size="sm"
          disabled={!draft.trim() || aiUsedUp}
          aria-describedby={aiUsedUp ? 'assistant-limit' : undefined}
        >
          <ArrowUpIcon aria-hidden />
          {m.assistant_send()}
        </Button>
      )}
    </form>
  )
}
