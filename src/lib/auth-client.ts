import { usernameClient } from 'better-auth/client/plugins'
import { createAuthClient } from 'better-auth/react'

/** Better Auth's client, on the same origin (/api/auth). */
export const authClient = createAuthClient({ basePath: '/api/auth', plugins: [usernameClient()] })
