import { APIError } from 'better-auth/api'
import { eq, inArray } from 'drizzle-orm'
import { parseRoleList } from '#/lib/access-control'
import type { Database } from '../db/client'
import { members, organizations } from '../db/schema'

/**
 * Before an account is deleted: refuse while it is the only owner of an organization others still belong to (they
 * would be left with nobody able to manage or delete it); delete the organizations only this account belongs to.
 */
export async function accountDeletionOrganizations(db: Database, userId: string): Promise<void> {
  const own = await db
    .select({ organizationId: members.organizationId, name: organizations.name })
    .from(members)
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(eq(members.userId, userId))
  if (own.length === 0) return
  const everyone = await db
    .select({ organizationId: members.organizationId, userId: members.userId, role: members.role })
    .from(members)
    .where(
      inArray(
        members.organizationId,
        own.map((membership) => membership.organizationId),
      ),
    )
  const alone: string[] = []
  for (const { organizationId, name } of own) {
    const inIt = everyone.filter((member) => member.organizationId === organizationId)
    const others = inIt.filter((member) => member.userId !== userId)
    if (others.length === 0) {
      alone.push(organizationId)
      continue
    }
    const isOwner = inIt.some((member) => member.userId === userId && parseRoleList(member.role).includes('owner'))
    if (isOwner && !others.some((member) => parseRoleList(member.role).includes('owner'))) {
      throw new APIError('BAD_REQUEST', {
        code: 'ACCOUNT_IS_LAST_OWNER',
        message: `Transfer the ownership of ${name} or delete it before deleting your account`,
      })
    }
  }
  if (alone.length > 0) await db.delete(organizations).where(inArray(organizations.id, alone))
}
