import { createServerFn } from '@tanstack/react-start'
import { getRequestHeaders } from '@tanstack/react-start/server'
import { getAuth } from '#/server/auth/auth'
import { hasPendingTwoFactorChallenge } from '#/server/auth/two-factor-challenge'

/** Whether the visitor has a password sign-in waiting for its second factor (read from the challenge cookie). */
export const fetchTwoFactorChallenge = createServerFn({ method: 'GET' }).handler(async () => ({
  pending: await hasPendingTwoFactorChallenge(getAuth(), new Headers(getRequestHeaders())),
}))
