import { isNotFound, isRedirect } from '@tanstack/react-router'
import { createMiddleware, createStart } from '@tanstack/react-start'

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
    // Loaded here, not at the top: this file is part of the browser's bundle too.
    const { noteFailure, logFailureOnce, failureCodeOf } = await import('#/server/failure-answers')
    const { translateErrorCode } = await import('#/lib/errors')
    logFailureOnce('server function', error)
    const code = failureCodeOf(noteFailure(error))
    throw new Error(translateErrorCode(code) ?? code)
  }
})

export const startInstance = createStart(() => ({ functionMiddleware: [hideServerFunctionErrors] }))
