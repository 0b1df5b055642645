/**
 * TanStack Start stops waiting for a route once its client hangs up: it answers 500 to nobody while the route's work
 * goes on outside every answer. A stopping server waits for answers, so it closed the database and Redis under that
 * work (seen in the soak: sign-ups failing on a closed pool, Redis closing under a session write).
 *
 * The router is given a signal that tells of a hang-up only once the route has answered. The work then ends inside
 * its answer, which graceful shutdown waits for; a streamed answer (notifications, the assistant) still stops as soon
 * as its reader goes; and an answer finished after its client left is dropped by the HTTP server, which cancels its
 * body.
 */
const leftBeforeAnswer = new WeakSet<Request>()

export async function routedUntilAnswered(
  request: Request,
  route: (request: Request) => Promise<Response>,
  options: { sharedAnswer?: boolean } = {},
): Promise<Response> {
  const client = request.signal
  const untilAnswered = new AbortController()
  // The request object itself is handed on (it carries the server's own fields, such as the client's address).
  Object.defineProperty(request, 'signal', { value: untilAnswered.signal, configurable: true })
  try {
    return await route(request)
  } finally {
    if (client.aborted) leftBeforeAnswer.add(request)
    // A page kept for every visitor is read whole whoever asked first; one client leaving does not cut it short.
    else if (!options.sharedAnswer) {
      client.addEventListener('abort', () => untilAnswered.abort(client.reason), { once: true })
    }
  }
}

/**
 * nginx's status for a request whose client hung up before its answer. Logged and counted as the 500 it was
 * answered with, a client leaving mid-request (a closed tab, a load test stopping) looked like a server fault.
 */
export const clientClosedRequest = 499

/** Whether the client went before this answer was ready (no one reads it). */
export function clientLeftBeforeAnswer(request: Request, status: number): boolean {
  // The signal is read only for a failure: the server makes it on first use, which every request would pay for.
  return leftBeforeAnswer.has(request) || (status >= 500 && request.signal.aborted)
}
