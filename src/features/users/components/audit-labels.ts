import { m } from '#/paraglide/messages'
import type { AuditAction } from '#/server/audit-log'

type Entry = { action: string; actorName: string; details: Record<string, string> }

const roleName = (role: string | undefined) =>
  role?.split(',').includes('admin') ? m.users_role_admin() : m.users_role_user()

const texts: Record<AuditAction, (entry: Entry) => string> = {
  user_created: (e) => m.audit_user_created({ actor: e.actorName, role: roleName(e.details.role) }),
  role_changed: (e) => m.audit_role_changed({ actor: e.actorName, role: roleName(e.details.to) }),
  user_banned: (e) => m.audit_user_banned({ actor: e.actorName, reason: e.details.reason ?? '' }),
  user_unbanned: (e) => m.audit_user_unbanned({ actor: e.actorName }),
  password_set: (e) => m.audit_password_set({ actor: e.actorName }),
  session_revoked: (e) => m.audit_session_revoked({ actor: e.actorName }),
  sessions_revoked: (e) => m.audit_sessions_revoked({ actor: e.actorName }),
  verification_email_sent: (e) => m.audit_verification_email_sent({ actor: e.actorName }),
  password_email_sent: (e) => m.audit_password_email_sent({ actor: e.actorName }),
  user_deleted: (e) => m.audit_user_deleted({ actor: e.actorName }),
  impersonation_started: (e) => m.audit_impersonation_started({ actor: e.actorName }),
  impersonation_stopped: (e) => m.audit_impersonation_stopped({ actor: e.actorName }),
}

/** An audit entry as a sentence in the reader's language. */
export function auditEntryText(entry: Entry): string {
  return Object.hasOwn(texts, entry.action) ? texts[entry.action as AuditAction](entry) : entry.action
}
