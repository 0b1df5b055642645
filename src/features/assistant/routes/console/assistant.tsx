import { createFileRoute } from '@tanstack/react-router'
import { AssistantScreen } from '#/features/assistant/components/assistant-screen'
import { assistantSearch } from '#/features/assistant/search'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/assistant')({
  validateSearch: assistantSearch,
  loaderDeps: ({ search }) => search,
  // Prefetched for the server render; a conversation that is not the person's shows as such in the page. In the
  // browser the screen loads a conversation when it opens one: the address also changes to a new conversation's id
  // when its first answer arrives (or is stopped) — before the server has stored it, so fetching it then was a 404.
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.assistant.status.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.assistant.conversations.queryOptions()),
      deps.c && typeof document === 'undefined'
        ? context.queryClient.prefetchQuery(context.trpc.assistant.conversation.queryOptions({ id: deps.c }))
        : null,
    ]),
  head: () => ({ meta: [{ title: m.console_assistant() }] }),
  staticData: { crumb: m.console_assistant },
  component: AssistantPage,
})

function AssistantPage() {
  const { c } = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <AssistantScreen
      conversationId={c}
      onOpen={(id, options) => navigate({ search: id ? { c: id } : {}, replace: options?.replace })}
    />
  )
}
