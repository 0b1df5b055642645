import { z } from '#/lib/zod'

/** The webhooks' variables, validated with the core's when a server starts (src/server/env.ts). */
export const env = {
  /**
   * Lets webhook endpoints point at loopback and private addresses: for local development and the tests only, since
   * on a server it lets any organization admin make the server call into its own network.
   */
  WEBHOOKS_ALLOW_PRIVATE: z
    .enum(['0', '1', 'true', 'false'], { error: 'must be 1, 0, true or false' })
    .default('0')
    .transform((value) => value === '1' || value === 'true'),
}
