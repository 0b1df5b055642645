/**
 * The most procedure calls one tRPC request may carry. The browser's batch link splits its batches at this size and
 * the server refuses a larger one: each call runs its own checks and queries, so an unbounded batch let one request
 * (one rate-limit count at the edge) do the work of hundreds.
 */
export const trpcBatchCallsMax = 50
