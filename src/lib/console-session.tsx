import { createContext, type ReactNode, useContext } from 'react'
import { type Action, allows, type Permissions, type Resource } from './access-control'
import type { SessionUser } from './session-user'

export interface OrganizationSummary {
  id: string
  name: string
  slug: string
  logo: string | null
}

/** What the console frame knows about the signed-in user, read on the server (src/features/console/console-session-fn.ts). */
export interface ConsoleSession {
  user: SessionUser
  /** The app-wide admin role (Configuration, Users), apart from any organization role. */
  isAppAdmin: boolean
  organization: OrganizationSummary & { createdAt: Date }
  member: { id: string; role: string; roles: string[]; createdAt: Date }
  /** What the member's roles grant in the active organization; the server checks again on every call. */
  permissions: Record<Resource, Action[]>
  /** What each of the member's roles grants on its own (a role they may give must fit inside one of them). */
  rolePermissions: Record<Resource, Action[]>[]
  organizations: OrganizationSummary[]
}

const ConsoleSessionContext = createContext<ConsoleSession | null>(null)

export function ConsoleSessionProvider({ session, children }: { session: ConsoleSession; children: ReactNode }) {
  return <ConsoleSessionContext.Provider value={session}>{children}</ConsoleSessionContext.Provider>
}

export function useConsoleSession(): ConsoleSession {
  const session = useContext(ConsoleSessionContext)
  if (!session) throw new Error('useConsoleSession is used outside the console')
  return session
}

/** Whether the member may do this in the active organization: only to hide what the server would refuse. */
export function useCan(requested: Permissions): boolean {
  return allows(useConsoleSession().permissions, requested)
}
