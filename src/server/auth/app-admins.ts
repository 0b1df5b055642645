import { eq, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { users } from '../db/schema'

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
