// The messages between the launcher (scripts/cluster.ts) and its app processes. No imports: the launcher loads this
// file with Node's type stripping, the app through its bundle.

/** What an app process tells the launcher once it listens (each binds the port itself, with SO_REUSEPORT). */
export const listeningMessage = 'hatch:listening'

/**
 * A scrape of /api/metrics reaches one process; it asks the launcher, which gathers every process's numbers and adds
 * them up (prom-client's cluster aggregation) and answers with them.
 */
export const metricsRequestMessage = 'hatch:metrics-request'
export const metricsAnswerMessage = 'hatch:metrics'
