import { randomBytes } from 'node:crypto'
import { and, count, eq } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { members } from '#/server/db/schema'
import { publishEvent } from '#/server/organization-events'
import { memberLimit, PlanLimitError } from '#/server/plan-limits'
import { recordActivity } from './organization-activity'
import { memberEvent } from './organization-plugin'

/** The role a person gets when their first single sign-on makes them a member. */
export const ssoMemberRole = 'member'

/**
 * Makes someone who signed in through their organization's identity provider a member of it, once: with the default
 * role, within the plan's member limit (PlanLimitError when full), in the activity log and announced to webhooks as
 * an invitation's acceptance would be. A member already keeps their role.
 */
export async function joinThroughSso(
  db: Database,
  organizationId: string,
  user: { id: string; name: string; email: string },
): Promise<'already-member' | 'joined'> {
  const [existing] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, user.id)))
  if (existing) return 'already-member'
  const { limit, planId } = await memberLimit(db, organizationId)
  const [taken] = await db.select({ value: count() }).from(members).where(eq(members.organizationId, organizationId))
  if ((taken?.value ?? 0) >= limit) throw new PlanLimitError('PLAN_LIMIT_MEMBERS', limit, planId)
  const member = { id: randomBytes(16).toString('base64url'), role: ssoMemberRole, createdAt: new Date() }
  const inserted = await db
    .insert(members)
    .values({ ...member, organizationId, userId: user.id })
    .onConflictDoNothing()
    .returning({ id: members.id })
  // Two sign-ins at once: the other one made the membership.
  if (inserted.length === 0) return 'already-member'
  await recordActivity(db, {
    organizationId,
    actor: { id: user.id, name: user.name },
    action: 'member_joined',
    details: { name: user.name, email: user.email, role: ssoMemberRole, via: 'sso' },
  })
  await publishEvent(db, memberEvent('member.added', organizationId, member, user))
  return 'joined'
}
