import { and, count, eq, isNull } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { organizationPlan, PlanLimitError } from '#/server/plan-limits'
import { booksPerPlan } from '../book-rules'
import { books } from './schema'

/** The organization's books that count against its plan: every one not deleted. */
export async function liveBookCount(db: Database, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(books)
    .where(and(eq(books.organizationId, organizationId), isNull(books.deletedAt)))
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
