import type { UIMessage } from 'ai'
import { BookPlusIcon, CheckIcon, FileSearchIcon, LoaderIcon, SearchIcon, XIcon } from 'lucide-react'
import { Button } from '#/components/ui/button'
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

interface Link {
  title: string
  url: string
}

function LinkList({ links }: { links: Link[] }) {
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
const asList = (value: unknown) => (Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : [])

function BookToConfirm({ input }: { input: Record<string, unknown> }) {
  const rows: [string, string][] = [
    [m.book_field_title(), asText(input.title)],
    [m.book_field_authors(), asList(input.authors).join(', ')],
    [m.book_field_isbn(), asText(input.isbn)],
    [m.book_field_year(), typeof input.publishedYear === 'number' ? String(input.publishedYear) : ''],
    [m.book_field_language(), asText(input.language)],
    [m.book_field_tags(), asList(input.tags).join(', ')],
  ]
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      {rows
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
    </dl>
  )
}

/** What the assistant did with a tool, shown in the conversation; a book to create waits for the person's answer. */
export function ToolCall({
  part,
  onAnswer,
}: {
  part: ToolPart
  onAnswer: (approvalId: string, approved: boolean) => void
}) {
  const name = part.type.slice('tool-'.length)
  const input = part.input ?? {}
  const output = part.output ?? {}
  const query = asText(input.query)

  if (name === 'create_book' && part.state === 'approval-requested' && part.approval) {
    const approvalId = part.approval.id
    return (
      <div className="grid gap-3 rounded-lg border bg-card p-3" data-testid="tool-confirm">
        <p className="flex items-center gap-2 text-sm font-medium">
          <BookPlusIcon className="size-4" aria-hidden />
          {m.assistant_tool_confirm_question()}
        </p>
        <BookToConfirm input={input} />
        <div className="flex flex-wrap gap-2">
          <Button type="button" size="sm" onClick={() => onAnswer(approvalId, true)}>
            <CheckIcon aria-hidden />
            {m.assistant_tool_confirm()}
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => onAnswer(approvalId, false)}>
            <XIcon aria-hidden />
            {m.assistant_tool_cancel()}
          </Button>
        </div>
      </div>
    )
  }

  const Icon = name === 'create_book' ? BookPlusIcon : name === 'search_docs' ? FileSearchIcon : SearchIcon
  const label =
    name === 'create_book'
      ? part.state === 'output-available'
        ? m.assistant_tool_created({ title: asText(output.title) })
        : m.assistant_tool_create_book()
      : name === 'search_docs'
        ? m.assistant_tool_search_docs({ query })
        : query
          ? m.assistant_tool_search_books({ query })
          : m.assistant_tool_list_books()
  const running = ['input-streaming', 'input-available', 'approval-responded'].includes(part.state)
  const books = Array.isArray(output.books) ? (output.books as { title: string; url: string }[]) : []
  const pages = Array.isArray(output.results) ? (output.results as { text: string; url: string }[]) : []
  return (
    <div className="rounded-lg border bg-muted/40 px-3 py-2 text-sm" data-testid="tool-call" data-tool={name}>
      <p className="flex items-center gap-2">
        {running ? (
          <LoaderIcon className="size-4 animate-spin" aria-hidden />
        ) : (
          <Icon className="size-4 text-muted-foreground" aria-hidden />
        )}
        <span>{label}</span>
        {part.state === 'output-available' && name !== 'create_book' ? (
          <span className="text-muted-foreground">
            · {m.assistant_tool_found({ count: String(name === 'search_docs' ? pages.length : books.length) })}
          </span>
        ) : null}
        {running ? <span className="text-muted-foreground">· {m.assistant_tool_running()}</span> : null}
      </p>
      {part.state === 'output-available' && name === 'create_book' && typeof output.url === 'string' ? (
        <LinkList links={[{ title: m.assistant_tool_open(), url: output.url }]} />
      ) : null}
      {part.state === 'output-available' ? (
        <LinkList
          links={[
            ...books.map((book) => ({ title: book.title, url: book.url })),
            ...pages.slice(0, 5).map((page) => ({ title: page.text, url: page.url })),
          ]}
        />
      ) : null}
      {part.state === 'output-error' ? (
        <p role="alert" className="mt-1 text-destructive">
          {m.assistant_tool_failed({ reason: part.errorText ?? '' })}
        </p>
      ) : null}
      {part.state === 'output-denied' ? (
        <p className="mt-1 text-muted-foreground">{m.assistant_tool_declined()}</p>
      ) : null}
    </div>
  )
}
