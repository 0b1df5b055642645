import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { siteSettings, users } from '../db/schema'

export type AppRole = 'admin' | 'user'

/**
 * Gives an account the app-wide admin role or takes it away (`npm run admin -- grant|revoke <email>`). Returns false
 * when no account has that address. The role is read on every request, so it applies at once.
 */
export async function setAppRole(db: Database, email: string, role: AppRole): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ id: users.id })
  return updated.length > 0
}

/**
 * Claims the installation's one "first account becomes app admin" turn; true for exactly one caller, ever. The row
 * lock makes concurrent sign-ups wait for each other, and the second finds the turn taken. An account that is later
 * deleted or demoted does not give the turn back: `npm run admin -- grant <email>` names another admin.
 */
export async function claimFirstAppAdmin(db: Database): Promise<boolean> {
  await db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing()
  const claimed = await db
    .update(siteSettings)
    .set({ firstAppAdminAt: sql`now()` })
    .where(and(eq(siteSettings.id, 1), isNull(siteSettings.firstAppAdminAt)))
    .returning({ id: siteSettings.id })
  return claimed.length > 0
}
