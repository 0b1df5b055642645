import { useQuery } from '@tanstack/react-query'
import { ListFilterNumber, ListFilterSelect } from '#/components/list-filters'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { bookLanguages } from '../book-languages'
import type { BookListSearch } from '../search'

/** Language names in the reader's language ("Chinese" / "中文"), sorted by that name. */
function useLanguageOptions() {
  const names = new Intl.DisplayNames([currentIntlLocale()], { type: 'language' })
  return bookLanguages
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, currentIntlLocale()))
}

/** Tag, language (only those the organization's books use) and a range of years. */
export function BookFilters({
  search,
  onChange,
}: {
  search: BookListSearch
  onChange: (change: Partial<BookListSearch>) => void
}) {
  const trpc = useTRPC()
  const facets = useQuery(trpc.books.facets.queryOptions())
  const languages = useLanguageOptions()
  return (
    <>
      <ListFilterSelect
        label={m.books_filter_tag()}
        value={search.tag}
        onChange={(tag) => onChange({ tag })}
        options={[
          ['', m.books_filter_any_tag()],
          ...(facets.data?.tags ?? []).map((tag): [string, string] => [tag, tag]),
        ]}
      />
      <ListFilterSelect
        label={m.books_filter_language()}
        value={search.language}
        onChange={(language) => onChange({ language: language as BookListSearch['language'] })}
        options={[
          ['', m.books_filter_any_language()],
          ...languages
            .filter((language) => facets.data?.languages.includes(language.code) || language.code === search.language)
            .map((language): [string, string] => [language.code, language.name]),
        ]}
      />
      <ListFilterNumber
        label={m.books_filter_year_from()}
        value={search.yearFrom}
        onChange={(yearFrom) => onChange({ yearFrom })}
      />
      <ListFilterNumber
        label={m.books_filter_year_to()}
        value={search.yearTo}
        onChange={(yearTo) => onChange({ yearTo })}
      />
    </>
  )
}
