import { APIError } from 'better-auth/api'
import { AppError } from '../trpc/init'

/**
 * Runs one of Better Auth's server endpoints inside a procedure, with its own checks. A refusal (a 4xx) becomes an
 * AppError carrying Better Auth's code, which the client translates like any other; anything else stays a failure.
 */
export async function betterAuthCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) {
      const body = error.body as { code?: string; message?: string } | undefined
      throw new AppError({
        code: error.statusCode === 404 ? 'NOT_FOUND' : error.statusCode === 403 ? 'FORBIDDEN' : 'BAD_REQUEST',
        appCode: body?.code ?? 'BAD_REQUEST',
        message: body?.message ?? error.message,
      })
    }
    throw error
  }
}
