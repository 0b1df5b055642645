import { TRPCClientError } from '@trpc/client'
import { m } from '#/paraglide/messages'

// The keys a schema or an error code may name; listed, so the bundle carries only these strings.
const messages: Record<string, (() => string) | undefined> = {
  validation_email_required: m.validation_email_required,
  validation_email_invalid: m.validation_email_invalid,
  error_code_BAD_REQUEST: m.error_code_BAD_REQUEST,
  error_code_NOT_FOUND: m.error_code_NOT_FOUND,
  error_code_TOO_MANY_REQUESTS: m.error_code_TOO_MANY_REQUESTS,
  error_code_INTERNAL_SERVER_ERROR: m.error_code_INTERNAL_SERVER_ERROR,
}

/** Translates a message key (as our zod schemas use) or returns the text as it is. */
export function translateMessage(keyOrText: string): string {
  const message = messages[keyOrText]
  return typeof message === 'function' ? message() : keyOrText
}

/** Field errors as the server's error formatter sends them with BAD_REQUEST. */
export function fieldErrorsOf(error: unknown): Record<string, string[] | undefined> {
  if (!(error instanceof TRPCClientError)) return {}
  return (error.data as { fieldErrors?: Record<string, string[] | undefined> } | undefined)?.fieldErrors ?? {}
}

/**
 * What to tell the user about a failed call: the first field error, else the translation of `error_code_{code}`,
 * else the server's own message.
 */
export function describeError(error: unknown): string {
  const firstFieldError = Object.values(fieldErrorsOf(error)).find((list) => list?.length)?.[0]
  if (firstFieldError) return translateMessage(firstFieldError)
  if (error instanceof TRPCClientError) {
    const code = (error.data as { code?: string } | undefined)?.code
    if (code) {
      const translated = messages[`error_code_${code}`]
      if (translated) return translated()
    }
    if (!error.data) return m.error_network()
    return error.message
  }
  return error instanceof Error ? error.message : String(error)
}
