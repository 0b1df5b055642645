import { currentIntlLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'

/** When, by whom, about what: under a post's title and on each index entry. */
export function PostMeta({ date, author, tags }: { date: Date; author: string; tags: string[] }) {
  const day = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'long', timeZone: 'UTC' })
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
      <time dateTime={new Date(date).toISOString().slice(0, 10)}>{day.format(new Date(date))}</time>
      <span aria-hidden>·</span>
      <span>{m.blog_by({ author })}</span>
      {tags.length > 0 ? (
        <>
          <span aria-hidden>·</span>
          <span className="sr-only">{m.blog_tags()}</span>
          {tags.map((tag) => (
            <span key={tag} className="rounded-full bg-secondary px-2 py-0.5 text-xs text-secondary-foreground">
              {tag}
            </span>
          ))}
        </>
      ) : null}
    </p>
  )
}
