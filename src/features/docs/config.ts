import { defineI18n } from 'fumadocs-core/i18n'
import { baseLocale, locales } from '#/paraglide/runtime'

/**
 * Docs pages are `page.mdx` plus `page.zh.mdx` side by side. URLs carry no locale for fumadocs: the app's router
 * adds /en or /zh to every URL, so fumadocs sees /docs/... in both languages.
 */
export const docsI18n = defineI18n({
  languages: [...locales],
  defaultLanguage: baseLocale,
  hideLocale: 'always',
  parser: 'dot',
})

export const docsBaseUrl = '/docs'
/** Where the core's MDX files live in the repository, for "Edit on GitHub" links (apps: src/server/app-docs.gen.ts). */
export const docsContentPath = 'content/docs'
