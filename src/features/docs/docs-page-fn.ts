import { createServerFn } from '@tanstack/react-start'
import { getDb } from '#/server/db/database'
import { docsPageRequest } from './schemas'
import { getDocsPageInfo } from './server/page-info'

/** A client mistake: TanStack Start answers with this status and does not log it as a server error. */
class BadRequestError extends Error {
  override name = 'BadRequestError'
  readonly status = 400
}

/**
 * What a docs page needs, for `{ slugs, lang }`. GET, so the answer can be cached; both docs routes use it.
 * Malformed input gets 400 with a message naming the field.
 */
export const fetchDocsPage = createServerFn({ method: 'GET' })
  .validator((input: unknown) => {
    const parsed = docsPageRequest.safeParse(input)
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
      throw new BadRequestError(`Invalid docs page request (${details.join('; ')})`)
    }
    return parsed.data
  })
  .handler(({ data }) => getDocsPageInfo(data, getDb()))
