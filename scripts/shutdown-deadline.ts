/**
 * How long a stopping server may take, after SHUTDOWN_TIMEOUT_MS for its requests, to stop its job queue (which waits
 * up to 10 s for running jobs) and close the database and Redis. Past it the process exits anyway, with code 1: a
 * resource that never closes must not hold a deploy or a rolling restart.
 */
export const closingAllowanceMs = 15_000

/** How much longer than its servers the launcher of several waits before it ends those still running. */
export const launcherAllowanceMs = 5_000

/**
 * SHUTDOWN_TIMEOUT_MS as the launcher reads it (the app validates it and refuses to start on a bad value; the
 * launcher only needs a bound, so a value it cannot read is the default).
 */
export function shutdownTimeoutMsOf(env: NodeJS.ProcessEnv): number {
  const value = Number(env.SHUTDOWN_TIMEOUT_MS)
  return env.SHUTDOWN_TIMEOUT_MS && Number.isInteger(value) && value >= 0 ? value : 10_000
}
