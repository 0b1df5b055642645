import { useEffect, useState } from 'react'

/**
 * Whether the visitor has a session, asked from the browser after hydration: the landing page is one cached HTML for
 * everyone, so nothing personal may be in it. `undefined` until the answer arrives.
 */
export function useSignedIn(): boolean | undefined {
  const [signedIn, setSignedIn] = useState<boolean | undefined>(undefined)
  useEffect(() => {
    const controller = new AbortController()
    fetch('/api/auth/get-session', { credentials: 'same-origin', signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { session?: unknown } | null) => setSignedIn(Boolean(body?.session)))
      .catch(() => {
        if (!controller.signal.aborted) setSignedIn(false)
      })
    return () => controller.abort()
  }, [])
  return signedIn
}
