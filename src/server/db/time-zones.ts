import { sql } from 'drizzle-orm'
import type { Database } from './client'
import { sqlRows } from './raw-sql'

/** Whether the database can cut days in `timeZone` (its zone list may be older than the runtime's). */
export async function isDatabaseTimeZone(db: Pick<Database, 'execute'>, timeZone: string): Promise<boolean> {
  const rows = await sqlRows<{ known: boolean }>(
    db,
    sql`select exists (select 1 from pg_timezone_names where name = ${timeZone}) as known`,
  )
  return rows[0]?.known === true
}
