import { z } from '#/lib/zod'

/** The assistant's variables, validated with the core's when a server starts (src/server/env.ts). */
export const env = {
  /** Assistant messages a person may send per minute. */
  AI_REQUESTS_PER_MINUTE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(20),
}
