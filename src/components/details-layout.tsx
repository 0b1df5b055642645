import { Link, type LinkProps } from '@tanstack/react-router'
import { ArrowLeftIcon } from 'lucide-react'
import { Fragment, type ReactNode, useId } from 'react'
import { describeError } from '#/lib/errors'

/** What a details page needs of its query: the record once loaded, or why it could not be read. */
interface DetailsQuery<T> {
  data: T | undefined
  isError: boolean
  error: unknown
}

/**
 * The page of one record (a user, a book): the way back to its list always, then a placeholder while it loads, the
 * reason when it cannot be read (not found included), or the record. `children` only lays out components: it runs
 * inside this one, so it must call no hooks itself.
 */
export function DetailsLayout<T>({
  backTo,
  backLabel,
  query,
  children,
}: {
  backTo: LinkProps['to']
  backLabel: string
  query: DetailsQuery<T>
  children: (data: T) => ReactNode
}) {
  const back = (
    <Link to={backTo} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeftIcon className="size-4" aria-hidden />
      {backLabel}
    </Link>
  )
  if (query.isError) {
    return (
      <div className="grid gap-4">
        {back}
        <p role="alert" className="text-destructive">
          {describeError(query.error)}
        </p>
      </div>
    )
  }
  if (query.data === undefined) {
    return (
      <div className="grid gap-4">
        {back}
        <div className="h-64 animate-pulse rounded-lg bg-muted" aria-hidden />
      </div>
    )
  }
  return (
    // The children's min-w-0 lets a wide table scroll inside its section instead of widening the page.
    <article className="grid min-w-0 grid-cols-1 gap-6 [&>*]:min-w-0">
      {back}
      {children(query.data)}
    </article>
  )
}

/** The record's name as the page's heading, what identifies it below, its picture beside, and its main actions. */
export function DetailsHeader({
  media,
  title,
  subtitle,
  children,
  actions,
}: {
  media?: ReactNode
  title: string
  subtitle?: ReactNode
  children?: ReactNode
  actions?: ReactNode
}) {
  return (
    <header className="flex flex-wrap items-start gap-4 sm:gap-6">
      {media}
      {/* Beside the picture while 12rem are left for the text, under it on a narrower screen. */}
      <div className="grid min-w-0 flex-1 basis-48 content-start gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{title}</h1>
          {subtitle ? <p className="text-muted-foreground [overflow-wrap:anywhere]">{subtitle}</p> : null}
        </div>
        {children}
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
    </header>
  )
}

/** A titled card of a details page, with an optional action beside its title. */
export function DetailsSection({
  title,
  action,
  children,
}: {
  title: string
  action?: ReactNode
  children: ReactNode
}) {
  const id = useId()
  return (
    <section aria-labelledby={id} className="rounded-xl border p-4 sm:p-6">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="font-semibold">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  )
}

/** One labelled value of a record; `false` or `null` in a list of fields leaves the field out. */
export interface DetailsField {
  label: string
  value: ReactNode
}

/**
 * A record's labelled values. Labels `above` their values in two columns suit a section; labels `beside` them in one
 * narrow column suit the header, next to a picture.
 */
export function DetailsFields({
  fields,
  labels = 'above',
}: {
  fields: (DetailsField | false | null)[]
  labels?: 'above' | 'beside'
}) {
  const shown = fields.filter((field): field is DetailsField => Boolean(field))
  if (labels === 'beside') {
    return (
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {shown.map((field) => (
          <Fragment key={field.label}>
            <dt className="text-muted-foreground">{field.label}</dt>
            <dd className="min-w-0 break-words">{field.value}</dd>
          </Fragment>
        ))}
      </dl>
    )
  }
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-2">
      {shown.map((field) => (
        <div key={field.label}>
          <dt className="text-muted-foreground">{field.label}</dt>
          <dd className="break-words">{field.value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A section's short list (memberships, history): each item's main text, and what is known of it on the right. */
export function DetailsList({
  items,
  empty,
  ordered = false,
  testId,
}: {
  items: { key: string | number; main: ReactNode; aside: ReactNode }[]
  empty: string
  ordered?: boolean
  testId?: string
}) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>
  const List = ordered ? 'ol' : 'ul'
  return (
    <List className="grid gap-2 text-sm" data-testid={testId}>
      {items.map((item) => (
        <li key={item.key} className="flex flex-wrap justify-between gap-2">
          <span className="break-words">{item.main}</span>
          <span className="text-muted-foreground">{item.aside}</span>
        </li>
      ))}
    </List>
  )
}
