import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { sqlRows } from '#/server/db/raw-sql'
import { dayIn } from './aggregates'

/**
 * A visitor's id for one day: a hash of that day's secret salt, the site, the address and the user agent. Nothing
 * about the visitor is stored, and once the day's salt is deleted the id cannot be recomputed or linked to another day.
 */
export function visitorIdOf(input: { salt: string; site: string; ip: string; userAgent: string }): string {
  return createHash('sha256')
    .update(`${input.salt}\u0000${input.site}\u0000${input.ip}\u0000${input.userAgent}`)
    .digest('base64url')
    .slice(0, 22)
}

export type SaltOfDay = (day: string) => Promise<string>

/** Ids for visitors "today" in the dashboard's time zone, with the salt of each day from `saltOfDay`. */
export async function visitorIdToday(
  saltOfDay: SaltOfDay,
  input: { timeZone: string; site: string; ip: string; userAgent: string; now?: Date },
): Promise<string> {
  const salt = await saltOfDay(dayIn(input.timeZone, input.now ?? new Date()))
  return visitorIdOf({ salt, site: input.site, ip: input.ip, userAgent: input.userAgent })
}

const saltCaches = new WeakMap<Database, Map<string, Promise<string>>>()

/**
 * Each day's salt from the database, made by whichever app server needs it first (the others read the same one),
 * and remembered in memory for that day only.
 */
export function databaseSalts(db: Database): SaltOfDay {
  let cache = saltCaches.get(db)
  if (!cache) {
    cache = new Map()
    saltCaches.set(db, cache)
  }
  const salts = cache
  return (day) => {
    const known = salts.get(day)
    if (known) return known
    // Only the current day (and, around midnight, its neighbour) is ever asked for: older days go.
    for (const other of salts.keys()) if (other < day) salts.delete(other)
    const loaded = (async () => {
      await db.execute(sql`
        insert into analytics_salts (day, salt) values (${day}::date, ${randomBytes(32).toString('base64url')})
        on conflict (day) do nothing
      `)
      const [row] = await sqlRows<{ salt: string }>(db, sql`select salt from analytics_salts where day = ${day}::date`)
      const salt = row?.salt
      if (!salt) throw new Error(`No analytics salt for ${day}`)
      return salt
    })()
    salts.set(day, loaded)
    loaded.catch(() => salts.delete(day))
    return loaded
  }
}
