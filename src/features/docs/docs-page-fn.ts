import { createServerFn } from '@tanstack/react-start'
import type { DocsPageRequest } from './schemas'
import { answerDocsPageRequest } from './server/page-info'

/**
 * What a docs page needs, for `{ slugs, lang }`. GET, so the answer can be cached; both docs routes use it.
 * The input is checked on the server (answerDocsPageRequest): malformed input gets 400 with a clear message.
 */
export const fetchDocsPage = createServerFn({ method: 'GET' })
  .validator((input: DocsPageRequest) => input)
  .handler(({ data }) => answerDocsPageRequest(data))
