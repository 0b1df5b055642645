import { eq, sql } from 'drizzle-orm'
import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale } from '#/lib/i18n'
import type { Database } from '#/server/db/client'
import { organizationPlan, PlanLimitError } from '#/server/plan-limits'
import { storageBytesPerPlan } from '../file-rules'
import { organizationFiles } from './schema'

/** Bytes of files the organization keeps (covers and attachments, those of books in the trash too). */
export async function storageUsed(db: Pick<Database, 'select'>, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string | null>`sum(${organizationFiles.bytes})` })
    .from(organizationFiles)
    .where(eq(organizationFiles.organizationId, organizationId))
  return Number(row?.bytes ?? 0)
}

/** Throws PlanLimitError when keeping `adding` more bytes would pass the plan's storage. */
export async function assertStorageCapacity(
  db: Pick<Database, 'select'>,
  organizationId: string,
  adding: number,
): Promise<void> {
  const { plan } = await organizationPlan(db as Database, organizationId)
  const limit = storageBytesPerPlan[plan.id]
  if ((await storageUsed(db, organizationId)) + adding > limit) {
    throw new PlanLimitError('PLAN_LIMIT_STORAGE', limit, plan.id, { size: formatFileSize(limit, currentIntlLocale()) })
  }
}
