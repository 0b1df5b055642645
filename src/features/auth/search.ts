import { searchParams, text } from '#/lib/url-search'

const redirect = text(2000, { trim: false })

/**
 * `?redirect=` on the auth pages; anything that is not a string is dropped (it is checked again before use).
 * `?email=` fills in the address on sign-up (an invitation's link knows it).
 */
export const authPageSearch = searchParams({ redirect, email: text(320) })

/** What Better Auth appends when it sends someone back from an emailed link. */
export const emailLinkSearch = searchParams({ token: text(500, { trim: false }), error: text(100, { trim: false }) })

/** The magic link's landing page: where to go next, or why the link failed. */
export const magicLinkSearch = searchParams({ redirect, error: text(100, { trim: false }) })
