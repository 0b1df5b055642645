/** How long an app admin may act as another user before the session ends by itself. */
export const impersonationMinutes = 60

/**
 * A readable (not HttpOnly) cookie naming whom an admin is acting as, set when impersonation starts and cleared when
 * it stops: pages served from the cache can show the banner without asking the server. It grants nothing.
 */
export const impersonationCookie = 'hatch.impersonating'

export interface ImpersonatedPerson {
  /** Absent in a cookie set before the id was added to it. */
  id?: string
  name: string
  email: string
}

export function readImpersonationCookie(cookieHeader: string): ImpersonatedPerson | null {
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name !== impersonationCookie) continue
    try {
      const value = JSON.parse(decodeURIComponent(rest.join('='))) as unknown
      if (value && typeof value === 'object' && 'name' in value && 'email' in value) {
        const id = 'id' in value && typeof value.id === 'string' ? value.id : undefined
        return { id, name: String(value.name), email: String(value.email) }
      }
    } catch {
      // A damaged cookie shows no banner.
    }
  }
  return null
}
