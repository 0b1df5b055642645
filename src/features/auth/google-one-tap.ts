import { createOneTapClient } from '#/lib/auth-client'

/** The page's one-tap client, built once: Better Auth's "already in progress" guard is per loaded client module. */
let oneTapClient: ReturnType<typeof createOneTapClient> | undefined
let oneTapClientId: string | undefined

/**
 * Shows Google's one-tap prompt and calls `onSignedIn` once the server accepted the ID token. Better Auth's client
 * retries a dismissed prompt (1000 ms, doubling, 5 attempts — see createOneTapClient) and answers a second call while
 * a prompt is open with a console warning. Google's script is loaded only from here, so not at all when one-tap is off.
 */
export async function startGoogleOneTap(clientId: string, onSignedIn: () => void): Promise<void> {
  if (!oneTapClient || oneTapClientId !== clientId) {
    oneTapClient = createOneTapClient(clientId)
    oneTapClientId = clientId
  }
  try {
    await oneTapClient.oneTap({ fetchOptions: { onSuccess: onSignedIn } })
  } catch (error) {
    // Google unreachable (blocked, offline): the page still has every other way to sign in.
    console.warn('Google one-tap is unavailable:', error)
  }
}
