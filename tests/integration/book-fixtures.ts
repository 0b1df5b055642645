/** A book as the form sends it: only the title filled in, unless `extra` says otherwise. */
export const book = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  authors: [],
  isbn: null,
  publishedYear: null,
  language: null,
  tags: [],
  coverUrl: null,
  description: '',
  ...extra,
})
