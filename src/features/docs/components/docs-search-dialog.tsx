import { useDocsSearch } from 'fumadocs-core/search/client'
import { fetchClient } from 'fumadocs-core/search/client/fetch'
import {
  SearchDialog,
  SearchDialogClose,
  SearchDialogContent,
  SearchDialogFooter,
  SearchDialogHeader,
  SearchDialogIcon,
  SearchDialogInput,
  SearchDialogList,
  SearchDialogOverlay,
  type SharedProps,
  useSearch,
} from 'fumadocs-ui/components/dialog/search'
import { useI18n } from 'fumadocs-ui/contexts/i18n'
import { SparklesIcon } from 'lucide-react'
import { m } from '#/paraglide/messages'
import { useAskDocs } from './ask-docs'

/** In the dialog's footer: ask the words typed so far, as a question, instead of searching them. */
function AskDocsSearchEntry() {
  const { ask } = useAskDocs()
  const { search, onOpenChange } = useSearch()
  const question = search.trim()
  return (
    <button
      type="button"
      onClick={() => {
        onOpenChange(false)
        ask(question)
      }}
      className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-start text-sm text-fd-muted-foreground hover:bg-fd-accent hover:text-fd-accent-foreground"
    >
      <SparklesIcon className="size-4 shrink-0" aria-hidden />
      <span className="truncate">{question ? m.docs_ask_in_search({ query: question }) : m.docs_ask_button()}</span>
    </button>
  )
}

/**
 * The docs' search dialog: fumadocs' own parts (the default dialog, composed the same way), with "Ask AI" for the
 * words typed inside its panel.
 */
export default function DocsSearchDialog(props: SharedProps) {
  const { locale } = useI18n()
  const { search, setSearch, query } = useDocsSearch({ client: fetchClient({ api: '/api/search', locale }) })
  return (
    <SearchDialog search={search} onSearchChange={setSearch} isLoading={query.isLoading} {...props}>
      <SearchDialogOverlay />
      <SearchDialogContent>
        <SearchDialogHeader>
          <SearchDialogIcon />
          <SearchDialogInput />
          <SearchDialogClose />
        </SearchDialogHeader>
        <SearchDialogList items={query.data !== 'empty' ? query.data : null} />
        <SearchDialogFooter>
          <AskDocsSearchEntry />
        </SearchDialogFooter>
      </SearchDialogContent>
    </SearchDialog>
  )
}
