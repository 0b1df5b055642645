import { eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { users } from '../db/schema'

/**
 * Notes that the session's person signed in or used the product now (`users.last_active_at`). An app admin acting
 * as someone (impersonation) is not that person being active.
 */
export async function markUserActive(
  db: Database,
  session: { userId: string; impersonatedBy?: string | null },
): Promise<void> {
  if (session.impersonatedBy) return
  await db.update(users).set({ lastActiveAt: new Date() }).where(eq(users.id, session.userId))
}
