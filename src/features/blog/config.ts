import { defineI18n } from 'fumadocs-core/i18n'
import { baseLocale, locales } from '#/paraglide/runtime'

/** The two collections of dated posts (collections.ts): news on the blog, one entry per release on the changelog. */
export type PostKind = 'blog' | 'changelog'
export const postKinds = ['blog', 'changelog'] as const satisfies readonly PostKind[]

export const postBaseUrls: Record<PostKind, string> = { blog: '/blog', changelog: '/changelog' }

/** `post.mdx` and `post.zh.mdx` side by side, as the docs; the router adds the language to URLs. */
export const postsI18n = defineI18n({
  languages: [...locales],
  defaultLanguage: baseLocale,
  hideLocale: 'always',
  parser: 'dot',
})
