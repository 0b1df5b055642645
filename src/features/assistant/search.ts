import { matching, searchParams } from '#/lib/url-search'
import { conversationIdPattern } from './schemas'

/** `?c=` names the open conversation; without it the page starts a new one. */
export const assistantSearch = searchParams({
  c: matching(80, (value) => conversationIdPattern.test(value)),
})
