import { matching, searchParams } from '#/lib/url-search'

/** A conversation's id, made by the browser; kept free of zod, as route search rules load with every page. */
export const conversationIdPattern = /^[A-Za-z0-9_-]{8,80}$/

/** `?c=` names the open conversation; without it the page starts a new one. */
export const assistantSearch = searchParams({
  c: matching(80, (value) => conversationIdPattern.test(value)),
})
