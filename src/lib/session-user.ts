/** The signed-in user as the console shows it (see src/features/auth/session-fn.ts). */
export interface SessionUser {
  id: string
  name: string
  email: string
  emailVerified: boolean
  image: string | null
  username: string | null
  /** Two-factor authentication is on: a password sign-in also asks for a code. */
  twoFactorEnabled: boolean
  /** A guest (anonymous plugin): no email or password of their own until they sign up. */
  isAnonymous: boolean
}

/** Up to two initials, for an avatar without a picture. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const initials = words.length > 1 ? `${words[0]?.[0] ?? ''}${words.at(-1)?.[0] ?? ''}` : (words[0]?.slice(0, 2) ?? '')
  return initials.toUpperCase() || '?'
}
