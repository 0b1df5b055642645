import { log } from '#/server/log'
import { AppError } from '#/server/trpc/init'

/**
 * The payment provider unreachable, too slow or failing on its side (each adapter knows its SDK's signs of that): the
 * buyer is told so, in their language, and may retry; the operator finds the cause in the log.
 */
export function providerUnavailable(provider: string, error: unknown): AppError {
  log().error({ err: error }, `the ${provider} API did not answer`)
  return new AppError({
    code: 'BAD_GATEWAY',
    appCode: 'PAYMENT_PROVIDER_UNAVAILABLE',
    message: 'The payment provider is not answering; nothing was charged. Please try again in a moment.',
  })
}
