import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { organizationLimits, slugify } from '#/features/organizations/organization-names'
import type { Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { listMemberships } from '#/server/auth/organization-access'
import type { Database } from '#/server/db/client'
import { members, organizationActivity, organizations } from '#/server/db/schema'

const newId = () => randomBytes(16).toString('base64url')

/** "{name}'s workspace" in the user's language, within the name limit. */
export function personalWorkspaceName(userName: string, locale: Locale): string {
  const name = m.organization_personal_name({ name: userName.trim() || '?' }, { locale })
  return name.length <= organizationLimits.nameMax ? name : `${name.slice(0, organizationLimits.nameMax - 1)}…`
}

/** A slug nobody has yet: the name's, or "workspace", plus a short random tail so two Graces never collide. */
function personalSlug(userName: string): string {
  const base = slugify(userName).slice(0, organizationLimits.slugMax - 9) || 'workspace'
  return `${base}-${randomBytes(4).toString('hex')}`
}

/** Creates the user's own organization (they own it) and returns its id. */
export async function createPersonalOrganization(
  db: Database,
  user: { id: string; name: string },
  locale: Locale,
): Promise<string> {
  const organizationId = newId()
  const name = personalWorkspaceName(user.name, locale)
  await db.transaction(async (tx) => {
    await tx.insert(organizations).values({ id: organizationId, name, slug: personalSlug(user.name) })
    await tx.insert(members).values({ id: newId(), organizationId, userId: user.id, role: 'owner' })
    await tx.insert(organizationActivity).values({
      organizationId,
      actorId: user.id,
      actorName: user.name,
      action: 'organization_created',
      details: { name },
    })
  })
  return organizationId
}

/**
 * The organization a new session starts in: the one it names if the user still belongs to it, else their first
 * membership; a user without any (a new account, or one who left every organization) gets a personal workspace, so
 * the console always has somewhere to work.
 */
export async function chooseActiveOrganization(
  db: Database,
  user: { id: string; name: string },
  locale: Locale,
  current?: string | null,
): Promise<string> {
  const memberships = await listMemberships(db, user.id)
  if (current && memberships.some((membership) => membership.id === current)) return current
  return memberships[0]?.id ?? (await createPersonalOrganization(db, user, locale))
}

/** Moves a guest's memberships to the account they sign up or in with (the guest is deleted right after). */
export async function moveMemberships(db: Database, fromUserId: string, toUserId: string): Promise<void> {
  const [kept, moving] = await Promise.all([listMemberships(db, toUserId), listMemberships(db, fromUserId)])
  const already = new Set(kept.map((membership) => membership.id))
  for (const membership of moving) {
    if (already.has(membership.id)) continue
    await db
      .update(members)
      .set({ userId: toUserId })
      .where(and(eq(members.userId, fromUserId), eq(members.organizationId, membership.id)))
  }
}
