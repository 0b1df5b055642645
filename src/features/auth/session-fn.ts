import { createServerFn } from '@tanstack/react-start'
import { getRequestHeaders } from '@tanstack/react-start/server'
import { getAuth } from '#/server/auth/auth'
import { readSession } from '#/server/auth/session-reads'

/** The signed-in user for route guards, or null; read on the server from the session cookie. */
export const fetchSessionUser = createServerFn({ method: 'GET' }).handler(async () => {
  const { session } = await readSession(getAuth(), new Headers(getRequestHeaders()))
  if (!session) return null
  const { id, name, email, emailVerified, image, username, twoFactorEnabled, isAnonymous } = session.user
  return {
    id,
    name,
    email,
    emailVerified,
    image: image ?? null,
    username: username ?? null,
    twoFactorEnabled: twoFactorEnabled === true,
    isAnonymous: isAnonymous ?? false,
  }
})
