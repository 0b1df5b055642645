import { APIError } from 'better-auth/api'
import { asc, eq, inArray } from 'drizzle-orm'
import { parseRoleList } from '#/lib/access-control'
import type { Database } from '#/server/db/client'
import { members, organizations, users } from '#/server/db/schema'
import { deleteAccountFiles, deleteOrganizationFiles } from '#/server/files/file-jobs'
import { OrganizationDeletionRefused, organizationDeletionRefusal } from '#/server/organization-deletion'
import { recordActivity } from './organization-activity'

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
  const refusal = await organizationDeletionRefusal(db, alone)
  if (refusal) throw new APIError('BAD_REQUEST', refusal)
  if (alone.length > 0) await db.delete(organizations).where(inArray(organizations.id, alone))
  for (const organizationId of alone) await deleteOrganizationFiles(organizationId)
}

/**
 * An app admin deletes an account: organizations it alone belongs to go with it; where it is the only owner and
 * others remain, the longest-standing admin (else member) becomes the owner, so no organization is left without one
 * (recorded in each organization's activity log); then the account itself (its sessions, memberships and links go
 * with it). One transaction: a refusal anywhere leaves everything as it was, never a hand-over without a deletion.
 */
export async function deleteAccountWithHandOver(
  db: Database,
  userId: string,
  actor: { id: string; name: string },
): Promise<void> {
  const deletedOrganizations = await db.transaction(async (tx) => {
    const alone = await handOverOrganizations(tx, userId, actor)
    await tx.delete(users).where(eq(users.id, userId))
    return alone
  })
  // After the commit: the files of the account and of the organizations that went with it, through the queue.
  for (const organizationId of deletedOrganizations) await deleteOrganizationFiles(organizationId)
  await deleteAccountFiles(userId)
}

/** Hands over what the account alone owns; returns the organizations deleted because it alone was in them. */
async function handOverOrganizations(
  db: Database,
  userId: string,
  actor: { id: string; name: string },
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const own = await tx
      .select({ organizationId: members.organizationId })
      .from(members)
      .where(eq(members.userId, userId))
    if (own.length === 0) return []
    const everyone = await tx
      .select({
        id: members.id,
        organizationId: members.organizationId,
        userId: members.userId,
        role: members.role,
        name: users.name,
        joinedAt: members.createdAt,
      })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(
        inArray(
          members.organizationId,
          own.map((membership) => membership.organizationId),
        ),
      )
      .orderBy(asc(members.createdAt))
    const alone: string[] = []
    for (const { organizationId } of own) {
      const others = everyone.filter((member) => member.organizationId === organizationId && member.userId !== userId)
      if (others.length === 0) {
        alone.push(organizationId)
        continue
      }
      if (others.some((member) => parseRoleList(member.role).includes('owner'))) continue
      const heir = others.find((member) => parseRoleList(member.role).includes('admin')) ?? others[0]
      if (!heir) continue
      await tx.update(members).set({ role: 'owner' }).where(eq(members.id, heir.id))
      await recordActivity(tx, {
        organizationId,
        actor,
        action: 'ownership_transferred',
        details: { name: heir.name, from: parseRoleList(heir.role).join(',') },
      })
    }
    const refusal = await organizationDeletionRefusal(tx, alone)
    if (refusal) throw new OrganizationDeletionRefused(refusal.code, refusal.message)
    if (alone.length > 0) await tx.delete(organizations).where(inArray(organizations.id, alone))
    return alone
  })
}
