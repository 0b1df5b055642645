// What happens in an organization, and whom to tell: the core and the apps report it here, and the installed apps
// that pass it on take it from here (docs/decisions/042): outgoing webhooks send events to an organization's
// endpoints, notifications tell people. So a reporter names no app, and with neither installed, reporting costs
// nothing.
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from './db/client'
import { members } from './db/schema'

/** Read when first reported: an app's code may report, and this module is loaded before the manifests are. */
const installed = async () => (await import('./apps.gen')).serverApps

/** A database or an open transaction: an event is recorded in the same transaction as the change it reports. */
export type EventWriter = Pick<Database, 'select' | 'insert'>

/** A change in an organization, named as a receiver sees it (`book.created`), with what it carries. */
export interface OrganizationEvent {
  organizationId: string
  type: string
  data: Record<string, unknown>
}

/** Something a person is told: its type names its words (`notification_{type}` in messages/). */
export interface Notice {
  type: string
  organizationId?: string | null
  params?: Record<string, string>
  /** A path inside the app without the language, e.g. `/console/books/abc`. */
  link?: string | null
}

/** An event recorded by an app, to be sent by the same app once the transaction that recorded it has committed. */
export interface RecordedEvent {
  app: string
  id: string
}

/** What an app that passes events on provides (its server manifest's `events`). */
export interface EventSink {
  record: (db: EventWriter, event: OrganizationEvent) => Promise<string[]>
  send: (ids: readonly string[]) => Promise<void>
}

/** What an app that tells people provides (its server manifest's `notices`). */
export interface NoticeSink {
  notify: (db: Database, userIds: readonly string[], notice: Notice) => Promise<void>
}

/**
 * Records an event inside the caller's transaction; send what it returns with `sendRecordedEvents` after the commit
 * (a job started earlier could run before the rows are visible).
 */
export async function recordEvent(db: EventWriter, event: OrganizationEvent): Promise<RecordedEvent[]> {
  const recorded: RecordedEvent[] = []
  for (const app of await installed()) {
    if (!app.events) continue
    const ids = await (await app.events()).record(db, event)
    recorded.push(...ids.map((id) => ({ app: app.name, id })))
  }
  return recorded
}

export async function sendRecordedEvents(recorded: readonly RecordedEvent[]): Promise<void> {
  if (recorded.length === 0) return
  for (const app of await installed()) {
    const ids = recorded.filter((event) => event.app === app.name).map((event) => event.id)
    if (ids.length > 0 && app.events) await (await app.events()).send(ids)
  }
}

/** Records and sends an event outside a transaction. */
export async function publishEvent(db: Database, event: OrganizationEvent): Promise<void> {
  await sendRecordedEvents(await recordEvent(db, event))
}

/** Tells people something, through every installed app that does. Never throws: the change has already happened. */
export async function notify(db: Database, userIds: readonly string[], notice: Notice): Promise<void> {
  for (const app of await installed()) if (app.notices) await (await app.notices()).notify(db, userIds, notice)
}

/** The members of an organization holding one of `roles` (owner, admin): who hears about its billing and webhooks. */
export async function membersWithRoles(db: Database, organizationId: string, roles: readonly string[]) {
  const rows = await db
    .select({ userId: members.userId })
    .from(members)
    .where(
      and(
        eq(members.organizationId, organizationId),
        sql`string_to_array(replace(${members.role}, ' ', ''), ',') && ${sql.raw(`array[${roles.map((role) => `'${role.replace(/'/g, '')}'`).join(',')}]`)}`,
      ),
    )
  return rows.map((row) => row.userId)
}
