import { notFound } from '@tanstack/react-router'

/**
 * Console pages that need a permission the person may lack. Kept apart from their names and words
 * (components/no-access.tsx): the routes' guards run in the start-up bundle, which should not carry them.
 */
export type GuardedConsolePage = 'invitations' | 'roles' | 'activity' | 'users' | 'configuration' | 'system'

/** What a console route's not-found carries when the page exists but the person may not see it. */
export interface NoAccess {
  /** A core page, or one an installed app names in its manifest's `guardedPages`. */
  noAccess: GuardedConsolePage | (string & {})
}

/**
 * Stops a console page the person may not open: the console then says so, inside its frame, with who can grant
 * it, instead of the bare "Not found" (the server checks every procedure the page would call anyway).
 */
export function requireConsoleAccess(allowed: boolean, page: NoAccess['noAccess']): void {
  if (!allowed) throw notFound({ data: { noAccess: page } satisfies NoAccess })
}
