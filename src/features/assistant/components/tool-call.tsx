import type { UIMessage } from 'ai'
import { CheckIcon, FileSearchIcon, LoaderIcon, WrenchIcon, XIcon } from 'lucide-react'
import { Suspense } from 'react'
import { Button } from '#/components/ui/button'
import { consoleApps } from '#/console-apps.gen'
import type { AssistantToolLink, AssistantToolView } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'

type Part = UIMessage['parts'][number]

/** A tool part of a message as the AI SDK keeps it (`tool-{name}`), with what this screen reads of it. */
export interface ToolPart {
  type: string
  toolCallId: string
  state: string
  input?: Record<string, unknown>
  output?: Record<string, unknown>
  errorText?: string
  approval?: { id: string; approved?: boolean }
}

export function isToolPart(part: Part): part is Part & ToolPart {
  return part.type.startsWith('tool-') && 'toolCallId' in part
}

function LinkList({ links }: { links: readonly AssistantToolLink[] }) {
  // Two passages of one page share its URL: the page is listed once.
  const unique = links.filter((link, index) => links.findIndex((other) => other.url === link.url) === index)
  if (unique.length === 0) return null
  return (
    <ul className="mt-1 grid gap-0.5 pl-6 text-sm">
      {unique.map((link) => (
        <li key={link.url} className="truncate">
          <a href={link.url} className="text-primary underline underline-offset-4">
            {link.title}
          </a>
        </li>
      ))}
    </ul>
  )
}

const asText = (value: unknown) => (typeof value === 'string' ? value : '')

/** The docs are the core's: their search is shown here, whichever apps are installed. */
const docsToolViews: Record<string, AssistantToolView> = {
  search_docs: {
    icon: FileSearchIcon,
    label: ({ input }) => m.assistant_tool_search_docs({ query: asText(input.query) }),
    result: (output) => {
      const pages = (Array.isArray(output.results) ? output.results : []).flatMap(
        (page: { text?: unknown; url?: unknown }) =>
          typeof page?.url === 'string' ? [{ title: asText(page.text), url: page.url }] : [],
      )
      return { found: pages.length, links: pages.slice(0, 5) }
    },
  },
}

const toolViews: Readonly<Record<string, AssistantToolView>> = Object.assign(
  {},
  ...consoleApps.map((app) => app.assistantTools ?? {}),
  docsToolViews,
)

/** What a call the person confirms would do, when its app says nothing of it: the input as the model wrote it. */
function InputAsWritten({ input }: { input: Record<string, unknown> }) {
  return <pre className="overflow-x-auto rounded-md bg-muted p-2 text-xs">{JSON.stringify(input, null, 2)}</pre>
}

/**
 * A tool no installed app describes (its app declared no view, or was removed after the conversation), or one that
 * asks first without saying how: named as the model calls it, and confirmed on what the model wrote.
 */
function genericView(name: string): AssistantToolView & Required<Pick<AssistantToolView, 'confirm'>> {
  return {
    icon: WrenchIcon,
    label: () => name,
    confirm: {
      question: () => m.assistant_tool_run_question({ name }),
      details: InputAsWritten,
      accept: m.assistant_tool_run,
      decline: m.assistant_tool_skip,
      declined: m.assistant_tool_not_run,
    },
  }
}

/** What the assistant did with a tool, shown in the conversation; a call that asks first waits for the person's answer. */
export function ToolCall({
  part,
  onAnswer,
}: {
  part: ToolPart
  onAnswer: (approvalId: string, approved: boolean) => void
}) {
  const name = part.type.slice('tool-'.length)
  const view = toolViews[name] ?? genericView(name)
  const confirm = view.confirm ?? genericView(name).confirm
  const input = part.input ?? {}
  const Icon = view.icon

  if (part.state === 'approval-requested' && part.approval) {
    const approvalId = part.approval.id
    const Details = confirm.details
    return (
      <div className="grid gap-3 rounded-lg border bg-card p-3" data-testid="tool-confirm" data-tool={name}>
        <p className="flex items-center gap-2 text-sm font-medium">
          <Icon className="size-4" aria-hidden />
          {confirm.question()}
        </p>
        {/* An app's details may load when first asked for (books' reads its definition). */}
        <Suspense>
          <Details input={input} />
        </Suspense>
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" onClick={() => onAnswer(approvalId, true)}>
            <CheckIcon aria-hidden />
            {confirm.accept()}
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => onAnswer(approvalId, false)}>
            <XIcon aria-hidden />
            {confirm.decline()}
          </Button>
        </div>
      </div>
    )
  }

  const output = part.state === 'output-available' ? (part.output ?? {}) : undefined
  const result = output && view.result ? view.result(output) : undefined
  const running = ['input-streaming', 'input-available', 'approval-responded'].includes(part.state)
  return (
    <div className="rounded-lg border bg-muted/40 px-3 py-2 text-sm" data-testid="tool-call" data-tool={name}>
      <p className="flex items-center gap-2">
        {running ? (
          <LoaderIcon className="size-4 animate-spin" aria-hidden />
        ) : (
          <Icon className="size-4 text-muted-foreground" aria-hidden />
        )}
        <span>{view.label({ input, output })}</span>
        {result?.found !== undefined ? (
          <span className="text-muted-foreground">· {m.assistant_tool_found({ count: String(result.found) })}</span>
        ) : null}
        {running ? <span className="text-muted-foreground">· {m.assistant_tool_running()}</span> : null}
      </p>
      {result ? <LinkList links={result.links} /> : null}
      {part.state === 'output-error' ? (
        <p role="alert" className="mt-1 text-destructive">
          {m.assistant_tool_failed({ reason: part.errorText ?? '' })}
        </p>
      ) : null}
      {part.state === 'output-denied' ? <p className="mt-1 text-muted-foreground">{confirm.declined()}</p> : null}
    </div>
  )
}
