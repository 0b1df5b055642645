import type { SQL } from 'drizzle-orm'
import type { Database } from './client'

/** The rows of a hand-written statement; both drivers (node-postgres, PGlite) answer with `rows`. */
export async function sqlRows<Row>(db: Pick<Database, 'execute'>, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as { rows: Row[] }
  return result.rows
}

/** How many rows a statement changed: node-postgres says `rowCount`, PGlite `affectedRows`. */
export async function sqlAffectedRows(db: Pick<Database, 'execute'>, query: SQL): Promise<number> {
  const { rowCount, affectedRows } = (await db.execute(query)) as { rowCount?: number | null; affectedRows?: number }
  return rowCount ?? affectedRows ?? 0
}
