import type { I18nProviderProps } from 'fumadocs-ui/contexts/i18n'
import type { Translations } from 'fumadocs-ui/i18n'
import { type Locale, localeNames, locales } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { setLocale } from '#/paraglide/runtime'

type Message = (inputs: Record<string, never>, options: { locale: Locale }) => string

// fumadocs' own UI strings, taken from messages/*.json so that both languages are checked like every other string.
const translationMessages: Record<Exclude<keyof Translations, 'displayName'>, Message> = {
  'Ask AI(AI chat button)': m.docs_ask_ai,
  'Back to Home(404 page)': m.back_to_home,
  'Choose a language(language switcher)': m.language_menu_label,
  'Choose a language(language switcher)(aria-label)': m.language_menu_label,
  'Close Banner(banner)(aria-label)': m.docs_close_banner,
  'Close Search(search dialog)(aria-label)': m.docs_close_search,
  'Close Sidebar(aria-label)': m.docs_close_sidebar,
  'Close Sidebar(sidebar)(aria-label)': m.docs_close_sidebar,
  'Collapse Sidebar(sidebar)(aria-label)': m.docs_collapse_sidebar,
  'Copied Text(code block)(aria-label)': m.docs_copied_text,
  'Copy Anchor Link(heading anchor)(aria-label)': m.docs_copy_anchor_link,
  'Copy Link(accordion)(aria-label)': m.docs_copy_link,
  'Copy Markdown(page actions)': m.docs_copy_markdown,
  'Copy Text(code block)(aria-label)': m.docs_copy_text,
  'Dark(theme switcher)(aria-label)': m.theme_dark,
  'Default(type table)': m.docs_type_default,
  'Edit on GitHub(edit page)': m.docs_edit_on_github,
  'Hide Sidebar(sidebar)': m.docs_hide_sidebar,
  'Last updated on(page footer)': m.docs_last_updated_on,
  'Layout Tab(layout tab trigger)': m.docs_layout_tab,
  'Light(theme switcher)(aria-label)': m.theme_light,
  'Next Page(pagination)': m.docs_next_page,
  'No Headings(table of contents)': m.docs_no_headings,
  'No results found(search dialog)': m.docs_no_results,
  'On this page(table of contents)': m.docs_on_this_page,
  'Open Search(search trigger)(aria-label)': m.docs_open_search,
  'Open Sidebar(sidebar)(aria-label)': m.docs_open_sidebar,
  'Open in ChatGPT(page actions)': m.docs_open_in_chatgpt,
  'Open in Claude(page actions)': m.docs_open_in_claude,
  'Open in Cursor(page actions)': m.docs_open_in_cursor,
  'Open in GitHub(page actions)': m.docs_open_in_github,
  'Open in Scira AI(page actions)': m.docs_open_in_scira,
  'Open(page actions)': m.docs_open,
  'Page Not Found(404 page)': m.not_found_title,
  'Parameters(type table)': m.docs_type_parameters,
  'Previous Page(pagination)': m.docs_previous_page,
  'Prop(type table)': m.docs_type_prop,
  // fumadocs fills in {url} itself.
  'Read {url}, I want to ask questions about it.(page actions)': (_, options) =>
    m.docs_ask_about_page({ url: '{url}' }, options),
  'Returns(type table)': m.docs_type_returns,
  'Search(search dialog)': m.docs_search,
  'Search(search trigger)': m.docs_search,
  'Show Sidebar(sidebar)': m.docs_show_sidebar,
  'System(theme switcher)(aria-label)': m.theme_system,
  'Table of Contents(inline table of contents)': m.docs_table_of_contents,
  'The page you are looking for might have been removed, had its name changed, or is temporarily unavailable.(404 page)':
    m.docs_page_removed,
  'Toggle Menu(mobile menu)(aria-label)': m.docs_toggle_menu,
  'Toggle Theme(theme switcher)(aria-label)': m.docs_toggle_theme,
  'Type(type table)': m.docs_type_type,
  'View as Markdown(page actions)': m.docs_view_as_markdown,
}

const cache = new Map<Locale, Partial<Record<string, string>>>()

export function docsUiTranslations(locale: Locale): Partial<Record<string, string>> {
  let translations = cache.get(locale)
  if (!translations) {
    translations = Object.fromEntries(
      Object.entries(translationMessages).map(([key, message]) => [key, message({}, { locale })]),
    )
    translations.displayName = localeNames[locale]
    cache.set(locale, translations)
  }
  return translations
}

/** The props of fumadocs' I18nProvider: our strings, and language changes through the app's own switch. */
export function docsI18nProps(locale: Locale): I18nProviderProps {
  return {
    locale,
    translations: docsUiTranslations(locale),
    locales: locales.map((code) => ({ locale: code, name: localeNames[code] })),
    onLocaleChange: (next) => setLocale(next as Locale),
  }
}
