// The words of the authorization policy (authorization-policy.ts), shared with the rows each app brings in its
// src/features/<app>/server/policy.ts (docs/decisions/042).
import type { Permissions } from '#/lib/access-control'

export type Gate =
  /** Anyone, signed in or not (rate limits may apply). */
  | { who: 'anyone' }
  /** Any signed-in account, or an API key's owner; not banned. */
  | { who: 'signed-in' }
  /** Accounts with the app-wide admin role (Configuration, Users); read from the database on every call. */
  | { who: 'app-admin' }
  /**
   * A member of the session's active organization whose roles grant `needs` (one role must grant all of it). Records
   * are looked up inside that organization only, so another organization's ids are NOT_FOUND.
   */
  | { who: 'member'; needs: Permissions }

export interface ProcedurePolicy {
  gate: Gate
  /** What the procedure checks beyond the gate, in words (the matrix tests the gate; feature tests the rest). */
  beyond?: string
  /**
   * The kinds of record ids its input names (`book`, `member`, an app's own `webhook-endpoint`): each is looked up
   * where the caller may see it, never elsewhere.
   */
  names?: readonly string[]
}

export const anyone: Gate = { who: 'anyone' }
export const signedIn: Gate = { who: 'signed-in' }
export const appAdmin: Gate = { who: 'app-admin' }
export const member = (needs: Permissions = {}): Gate => ({ who: 'member', needs })

export interface RoutePolicy {
  /** Who may call it, in words. */
  who: string
  /** How the route checks it. */
  how: string
}
