import { TRPCError } from '@trpc/server'
import { translateAppError, translateErrorCode, translateMessage } from '#/lib/errors'
import { ZodError } from '#/lib/zod'
import { AppError } from './init'

/**
 * A procedure's refusal in words, in the current language: the reason, and for invalid input each field with its
 * problem. Undefined for anything that is not a refusal (a server fault), which the caller should let through.
 * Tools called by a model (MCP, the assistant) answer with it, so the model can tell the person or try again.
 */
export function refusalText(error: unknown): string | undefined {
  if (!(error instanceof TRPCError) || error.code === 'INTERNAL_SERVER_ERROR') return undefined
  const reason =
    (error instanceof AppError ? translateAppError(error.appCode, error.params) : undefined) ??
    translateErrorCode(error.code) ??
    error.message
  const issues = error.cause instanceof ZodError ? error.cause.issues : []
  const fields = issues.map((issue) => `${issue.path.join('.') || 'input'}: ${translateMessage(issue.message)}`)
  return [reason, ...fields].join('\n')
}
