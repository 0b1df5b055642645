import type { BetterAuthPlugin } from 'better-auth'
import type { Database } from '../db/client'

/** Where a Better Auth database hook runs, as far as an app's hooks need to know. */
export interface AuthHookContext {
  path?: string
  params?: unknown
}

/**
 * What an app adds to sign-in (docs/decisions/042), declared in the app's `src/features/<app>/server/auth.ts` and
 * composed by src/server/auth/auth.ts through `src/server/auth/app-auth.gen.ts`. Single sign-on is one: its Better Auth
 * plugin, its table, and the guards that decide who its identity providers may sign in.
 */
export interface AppAuthExtension {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /** The tables of its plugins' models, by model name (Better Auth's drizzle adapter maps them). */
  tables?: Readonly<Record<string, unknown>>
  /** Endpoints of its plugins that stay off (the app answers through its own procedures instead). */
  disabledPaths?: readonly string[]
  /** Origins trusted besides the site's own, when the app needs some (identity providers on private addresses). */
  trustedOrigins?: (db: Database) => (() => Promise<string[]>) | undefined
  /**
   * Codes its guards refuse a valid API key with (the owner's organization requires single sign-on): the MCP server
   * answers them 403 with their words, not 401 as for a wrong key.
   */
  keyRefusalCodes?: readonly string[]
  /** Plugins whose hooks must run before the api-key plugin's (which answers get-session and ends the chain). */
  earlyPlugins?: (db: Database) => readonly BetterAuthPlugin[]
  /** Its plugins, after the organizations'. */
  plugins?: (db: Database) => readonly BetterAuthPlugin[]
  /**
   * Before a user is created: throws to refuse; `vouched` when the app vouches for the address (an organization's own
   * identity provider for its verified domain), so closed sign-up does not stop it and the address counts as verified.
   */
  beforeUserCreated?: (db: Database, email: string, ctx: AuthHookContext | null | undefined) => Promise<boolean>
  /** Before an identity is linked to an account: throws to refuse. */
  beforeAccountCreated?: (db: Database, userId: string, ctx: AuthHookContext | null | undefined) => Promise<void>
  /**
   * Before a session is created: throws to refuse; returns the organization the session opens in (the one whose
   * identity provider signed the person in), or undefined.
   */
  beforeSessionCreated?: (
    db: Database,
    ctx: AuthHookContext | null | undefined,
    user: { id: string; name: string; email: string },
  ) => Promise<string | undefined>
}

export function defineAppAuth<const Extension extends AppAuthExtension>(extension: Extension): Extension {
  return extension
}
