import { z } from 'zod'

/** `?redirect=` on the auth pages; anything that is not a string is dropped (it is checked again before use). */
export const authPageSearch = z.object({ redirect: z.string().max(2000).optional().catch(undefined) })
