import { z } from '#/lib/zod'

/** The analytics' variables, validated with the core's when a server starts (src/server/env.ts). */
export const env = {
  /** Beacons accepted per client address per minute and server; 0 = no limit (benchmarks). */
  INSIGHTS_BEACONS_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(0).default(120),
}
