/**
 * A server function's refusal of its input: the caller's mistake, worded for them by our own code (never a library's
 * or the database's text). It reaches the browser as it is; any other error is replaced by a generic one (src/start.ts).
 */
export class InputRefusal extends Error {
  override name = 'InputRefusal'
}
