import type { SiteSettings } from '#/lib/site-settings'
import type { AssistantTools } from './ai/assistant-tools'
import type { Database } from './db/client'
import type { Env } from './env'
import type { JobDefinition } from './jobs/queue'
import type { LaunchCheck, LaunchCheckContext } from './launch-checks'
import type { McpToolSet } from './mcp'
import type { EventSink, NoticeSink } from './organization-events'

/**
 * What an app adds to the server's shared places (docs/decisions/042), declared once in the app's
 * `src/features/<app>/server/app.ts` and read through `src/server/apps.gen.ts`. Whatever loads the app's own code is a
 * function that imports it when first asked: a server that starts does not load every app, and the core modules that
 * read the manifests never import an app's code while they load (which would make import cycles through the app).
 */
export interface ServerAppManifest {
  /** The app's folder under src/features/, as `src/apps.ts` lists it. */
  name: string
  /**
   * Public pages that look the same to every visitor (a path with its language, `/en/blog/a-post`): rendered once and
   * kept in the page cache until the next build or site setting.
   */
  publicPages?: RegExp
  /**
   * Its pages that show or change one person's things, by their first segment after the language (`my-orders`), and
   * its routes under /api that answer one caller (`assistant`): no cache between the server and the visitor keeps
   * them (src/server/cache-control.ts).
   */
  personalPages?: readonly string[]
  personalApis?: readonly string[]
  /** Sections whose pages come with every release (`blog`): counted as one route label each in the metrics. */
  growingSections?: readonly string[]
  /** Pages for sitemap.xml, without the language (each is listed in every language). */
  sitemapPaths?: () => Promise<string[]>
  /** A section of llms.txt, in Markdown. */
  llmsSection?: (appUrl: string) => Promise<string>
  /**
   * Its tools on the MCP server (src/routes/api/mcp.ts), after the docs'; a tool that works on an organization's
   * records registers only for a request with an API key (`asKeyOwner`).
   */
  mcpTools?: () => Promise<McpToolSet>
  /** Its tools for the console assistant (src/features/assistant), before the docs'. */
  assistantTools?: () => Promise<AssistantTools>
  /**
   * Sentences the assistant's standing instructions add for its tools (when to use them, what to say of a refusal),
   * before the docs'. The words shown for their calls are in its console.ts (`assistantTools`).
   */
  assistantInstructions?: readonly string[]
  /** Passes the organizations' events on (src/server/organization-events.ts). */
  events?: () => Promise<EventSink>
  /** Tells people what the core and the apps report (src/server/organization-events.ts). */
  notices?: () => Promise<NoticeSink>
  /** Its background jobs, loaded by every server before its queue starts (src/server/installed-apps.ts). */
  // biome-ignore lint/suspicious/noExplicitAny: each job has its own data; the queue only needs their definitions
  jobs?: () => Promise<readonly JobDefinition<any>[]>
  /** Housekeeping run by the hourly maintenance job (src/server/maintenance.ts), in this order, after the core's. */
  maintenanceTasks?: readonly { name: string; run: (db: Database) => Promise<unknown> }[]
  /**
   * Where an organization's plan comes from (src/server/plan-limits.ts): billing answers with the subscription that
   * grants one. Without such an app nothing is sold: every organization has the largest plan. The first app that has
   * it answers.
   */
  organizationPlan?: () => Promise<
    (
      db: Database,
      organizationId: string,
    ) => Promise<{ planId: string; seats: number; interval: string | null; status: string | null } | undefined>
  >
  /**
   * Why these organizations may not be deleted yet, with an error code and its message (billing: a subscription still
   * renews); undefined lets them go (src/server/organization-deletion.ts).
   */
  organizationDeletionRefusal?: () => Promise<
    (
      db: Pick<Database, 'select'>,
      organizationIds: readonly string[],
    ) => Promise<{ code: string; message: string } | undefined>
  >
  /**
   * Tasks an operator runs from the command line against the app's database, by name (`npm run billing -- replay`
   * reaches billing's through src/server.ts's `operatorTasks.appTask`).
   */
  operatorTasks?: Readonly<Record<string, () => Promise<(db: Database, ...args: string[]) => Promise<unknown>>>>
  /**
   * Figures a backup records and a restore checks (src/server/backups), by name: SQL answering one row whose first
   * column is a number (billing's paid amount and its live subscriptions' amount). Read in the backup's snapshot.
   */
  backupTotals?: Readonly<Record<string, string>>
  /**
   * Origins the pages' script policy allows besides the site's own (src/server/content-security-policy.ts), asked per
   * page: none unless the app's service is configured.
   */
  scriptSources?: () => readonly string[]
  /**
   * Acts on a change saved in Configuration, after it is stored (`changed` names the core's settings and the apps',
   * `<app>.<key>`); a failure is logged, the change stays.
   */
  settingsChanged?: (db: Database, change: { changed: readonly string[]; settings: SiteSettings }) => Promise<void>
  /** Its POST routes that change no one's access: what the server remembers of access stays (organization-access.ts). */
  accessNeutralPosts?: readonly string[]
  /**
   * How much of its plan limits (plans.ts) an organization uses now, by the limits' names: Billing shows it beside
   * what the plan allows.
   */
  planUsage?: () => Promise<(db: Database, organizationId: string) => Promise<Readonly<Record<string, number>>>>
  /**
   * Sample records for demos and benchmarks, by the name `npm run db:seed -- --<name> <count>` takes (scripts/seed.ts):
   * each fills an organization, the one with this slug or else the oldest, and says how many it added where (null:
   * there is no such organization).
   */
  seeds?: Readonly<
    Record<
      string,
      () => Promise<
        (
          db: Database,
          count: number,
          organizationSlug?: string,
        ) => Promise<{ inserted: number; organization: string } | null>
      >
    >
  >
  /**
   * Its items of the "Before you launch" checklist on Console → System (src/server/launch-checks.ts), read from the
   * live configuration each time the page asks, with their words in the admin's language.
   */
  launchChecks?: (db: Database, env: Env, context: LaunchCheckContext) => Promise<readonly LaunchCheck[]>
  /** Work a server finishes before it stops (src/server/runtime.ts). */
  shutdownTasks?: readonly { name: string; run: (db: Database) => Promise<unknown> }[]
}

export function defineServerApp<const Manifest extends ServerAppManifest>(manifest: Manifest): Manifest {
  return manifest
}
