import { useQuery, useQueryClient } from '@tanstack/react-query'
import { generateId } from 'ai'
import { ListIcon, MessageSquareOffIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { AiNotConfigured } from '#/components/ai-not-configured'
import { EmptyState } from '#/components/empty-state'
import { PageHeader } from '#/components/page-header'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { ChatThread } from './chat-thread'
import { ConversationList } from './conversation-list'

/** A stored conversation, loaded before its thread mounts (the thread keeps its own state from then on). */
function StoredConversation({ id, onAnswered }: { id: string; onAnswered: () => void }) {
  const trpc = useTRPC()
  const conversation = useQuery(trpc.assistant.conversation.queryOptions({ id }))
  if (conversation.isPending) return <div className="h-64 animate-pulse rounded-xl bg-muted" aria-busy="true" />
  if (conversation.isError) {
    return (
      <EmptyState icon={MessageSquareOffIcon} title={describeError(conversation.error)}>
        {null}
      </EmptyState>
    )
  }
  return <ChatThread conversationId={id} initialMessages={conversation.data.messages} onAnswered={onAnswered} />
}

/**
 * The console assistant: the person's conversations in this organization beside the one open. A new conversation
 * gets its id here and keeps it once the first answer has made it a stored one (the thread is not remounted).
 */
export function AssistantScreen({
  conversationId,
  onOpen,
}: {
  conversationId: string | undefined
  onOpen: (id: string | undefined, options?: { replace?: boolean }) => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const status = useQuery(trpc.assistant.status.queryOptions())
  const [draftId, setDraftId] = useState(() => generateId())
  const [listOpen, setListOpen] = useState(false)
  const activeId = conversationId ?? draftId
  // Once another conversation is opened, the draft (answered or not) is left behind: a new one waits for next time.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the open conversation starts a draft
  useEffect(() => {
    if (conversationId !== undefined && conversationId !== draftId) setDraftId(generateId())
  }, [conversationId])

  const startNew = () => {
    setDraftId(generateId())
    setListOpen(false)
    onOpen(undefined)
  }
  const answered = (id: string) => {
    void queryClient.invalidateQueries({ queryKey: trpc.assistant.conversations.queryKey() })
    if (id === draftId && conversationId !== id) onOpen(id, { replace: true })
  }

  const header = <PageHeader title={m.console_assistant()} description={m.assistant_intro()} />
  if (status.data && !status.data.configured) {
    return (
      <div>
        {header}
        <AiNotConfigured />
      </div>
    )
  }
  return (
    <div>
      {header}
      <div className="grid gap-6 md:grid-cols-[15rem_minmax(0,1fr)]">
        <div className="md:hidden">
          <Button type="button" variant="outline" size="sm" onClick={() => setListOpen((open) => !open)}>
            <ListIcon aria-hidden />
            {m.assistant_show_conversations()}
          </Button>
        </div>
        <aside className={listOpen ? 'block min-w-0' : 'hidden min-w-0 md:block'}>
          <ConversationList
            activeId={activeId}
            onNew={startNew}
            onNavigate={() => setListOpen(false)}
            onDeleted={(id) => {
              if (id === activeId) startNew()
            }}
          />
        </aside>
        <section aria-label={m.console_assistant()} className="min-w-0">
          {activeId === draftId ? (
            <ChatThread
              key={activeId}
              conversationId={activeId}
              initialMessages={[]}
              onAnswered={() => answered(activeId)}
            />
          ) : (
            <StoredConversation key={activeId} id={activeId} onAnswered={() => answered(activeId)} />
          )}
        </section>
      </div>
    </div>
  )
}
