import { isNotFound, isRedirect } from '@tanstack/react-router'
import { createMiddleware, createStart } from '@tanstack/react-start'
import { InputRefusal } from '#/lib/input-refusal'

/**
 * A server function that fails sends its error to the browser (serialised into the page during server rendering, or
 * as its HTTP answer), where the error screen can show its message. Only a generic, translated one may travel: the
 * real error, which may quote a failed query, stays in the server's log (issue 26).
 */
const hideServerFunctionErrors = createMiddleware({ type: 'function' }).server(async ({ next }) => {
  try {
    return await next()
  } catch (error) {
    if (isRedirect(error) || isNotFound(error) || error instanceof Response) throw error
    // A refused input is the caller's mistake, worded by our own code ("lang must be one of: en, zh"): it goes back
    // as it is, with its 400.
    if (isInputRefusal(error)) throw error
    // Loaded here, not at the top: this file is part of the browser's bundle too.
    const { noteFailure, logFailureOnce, failureCodeOf } = await import('#/server/failure-answers')
    const { translateErrorCode } = await import('#/lib/errors')
    logFailureOnce('server function', error)
    const code = failureCodeOf(noteFailure(error))
    throw new Error(translateErrorCode(code) ?? code)
  }
})

/** A refusal of the function's input: ours (InputRefusal), or a schema's (zod: our own messages per field). */
function isInputRefusal(error: unknown): boolean {
  if (error instanceof InputRefusal) return true
  return error instanceof Error && error.name === 'ZodError' && Array.isArray((error as { issues?: unknown }).issues)
}

export const startInstance = createStart(() => ({ functionMiddleware: [hideServerFunctionErrors] }))
