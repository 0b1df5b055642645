import { notFound } from '@tanstack/react-router'
import { m } from '#/paraglide/messages'

/** Console pages that need a permission the person may lack, by the name their navigation shows. */
const guardedPages = {
  books: { name: m.console_books, grantedBy: 'organization' },
  invitations: { name: m.console_org_invitations, grantedBy: 'organization' },
  roles: { name: m.console_org_roles, grantedBy: 'organization' },
  billing: { name: m.console_org_billing, grantedBy: 'organization' },
  activity: { name: m.console_org_activity, grantedBy: 'organization' },
  users: { name: m.console_users, grantedBy: 'app' },
  configuration: { name: m.console_configuration, grantedBy: 'app' },
} as const

export type GuardedConsolePage = keyof typeof guardedPages

/** What a console route's not-found carries when the page exists but the person may not see it. */
export interface NoAccess {
  noAccess: GuardedConsolePage
}

/**
 * Stops a console page the person may not open: the console then says so, inside its frame, with who can grant
 * it, instead of the bare "Not found" (the server checks every procedure the page would call anyway).
 */
export function requireConsoleAccess(allowed: boolean, page: GuardedConsolePage): void {
  if (!allowed) throw notFound({ data: { noAccess: page } satisfies NoAccess })
}

export function noAccessOf(data: unknown): { name: string; grantedBy: 'organization' | 'app' } | null {
  const page = (data as Partial<NoAccess> | undefined)?.noAccess
  if (!page || !(page in guardedPages)) return null
  const { name, grantedBy } = guardedPages[page]
  return { name: name(), grantedBy }
}
