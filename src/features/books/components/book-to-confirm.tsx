import { keysWhere, textOf } from '#/lib/entity'
import { bookEntity } from '../book-entity'

const asList = (value: unknown) => (Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : [])

/** The book the model wrote, as the person sees it before it is added: the fields it filled in. */
export default function BookToConfirm({ input }: { input: Record<string, unknown> }) {
  const rows = keysWhere(bookEntity, (field) => field.tool !== false).map((key) => {
    const field = bookEntity.fields[key]
    const value = input[key]
    // Only what a tool may send: text, a number or a list of texts.
    const given = typeof value === 'string' || typeof value === 'number' ? value : asList(value)
    return [field.label(), textOf(given)] as const
  })
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
