import { z } from '#/lib/zod'

/** `?redirect=` on the auth pages; anything that is not a string is dropped (it is checked again before use). */
export const authPageSearch = z.object({ redirect: z.string().max(2000).optional().catch(undefined) })

/** What Better Auth appends when it sends someone back from an emailed link. */
export const emailLinkSearch = z.object({
  token: z.string().max(500).optional().catch(undefined),
  error: z.string().max(100).optional().catch(undefined),
})
