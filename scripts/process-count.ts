// Apart from the launcher (scripts/cluster.ts), whose logging and metrics libraries a lone server does not load.
import { availableParallelism } from 'node:os'

/**
 * How many app processes `npm start` runs: `WEB_CONCURRENCY`, by default one per CPU, when the app is on PostgreSQL;
 * always one on the embedded database, which only one process can open. An error naming the variable when it is
 * not a whole number from 1 to 64 (the server does not start, like for any other bad variable).
 */
export function processCount(env: NodeJS.ProcessEnv): { count: number } | { error: string } {
  const raw = env.WEB_CONCURRENCY?.trim()
  if (raw !== undefined && raw !== '' && !/^\d+$/.test(raw)) {
    return { error: 'WEB_CONCURRENCY must be a whole number from 1 to 64' }
  }
  const asked = raw ? Number(raw) : undefined
  if (asked !== undefined && (asked < 1 || asked > 64)) {
    return { error: 'WEB_CONCURRENCY must be a whole number from 1 to 64' }
  }
  if (!env.DATABASE_URL) return { count: 1 }
  return { count: asked ?? availableParallelism() }
}
