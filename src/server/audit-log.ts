import type { Database } from './db/client'
import { auditLog } from './db/schema'

/** What app admins do to accounts; the console translates each as `audit_{action}`. */
export const auditActions = [
  'user_created',
  'role_changed',
  'user_banned',
  'user_unbanned',
  'password_set',
  'session_revoked',
  'sessions_revoked',
  'verification_email_sent',
  'password_email_sent',
  'user_deleted',
  'impersonation_started',
  'impersonation_stopped',
] as const
export type AuditAction = (typeof auditActions)[number]

export interface AuditPerson {
  /** None once the account is deleted (the entry keeps the name and address). */
  id: string | null
  name: string
  email: string
}

export async function recordAudit(
  db: Pick<Database, 'insert'>,
  entry: {
    actor: { id: string; name: string }
    action: AuditAction
    target: AuditPerson
    details?: Record<string, string>
  },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    action: entry.action,
    targetUserId: entry.target.id,
    targetName: entry.target.name,
    targetEmail: entry.target.email,
    details: entry.details ?? {},
  })
}
