import { eq, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { organizationPlan, PlanLimitError } from '#/server/plan-limits'
import { booksPerPlan } from '../book-rules'
import { bookAdditions } from './schema'

/**
 * The organization's books that count against its plan: every one not deleted. Summed from book_additions (schema.ts),
 * which the triggers on books keep in the same transaction as every write: as exact as counting the books, and a
 * handful of rows where the books are thousands.
 */
export async function liveBookCount(db: Database, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`coalesce(sum(${bookAdditions.added} - ${bookAdditions.deleted}), 0)`.mapWith(Number) })
    .from(bookAdditions)
    .where(eq(bookAdditions.organizationId, organizationId))
  return row?.value ?? 0
}

/** Throws PlanLimitError when adding `adding` live books would pass the plan's limit. */
export async function assertBookCapacity(db: Database, organizationId: string, adding: number): Promise<void> {
  const { plan } = await organizationPlan(db, organizationId)
  const limit = booksPerPlan[plan.id]
  if (limit === null || adding <= 0) return
  if ((await liveBookCount(db, organizationId)) + adding > limit) {
    throw new PlanLimitError('PLAN_LIMIT_BOOKS', limit, plan.id)
  }
}
