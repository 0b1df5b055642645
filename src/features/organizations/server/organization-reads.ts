import { and, asc, eq } from 'drizzle-orm'
import { parseStoredPermission } from '#/server/auth/organization-access'
import type { Database } from '#/server/db/client'
import { invitations, members, organizationRoles, teamMembers, teams, users } from '#/server/db/schema'

/**
 * What the invitations and teams pages show of the active organization: its members (with their users), its
 * invitations and its teams. Read here rather than by the browser from Better Auth, so each page's loader has it for
 * the server render; the procedure's gate is the permission check, as for every procedure.
 */
export async function readFullOrganization(db: Database, organizationId: string) {
  const [memberRows, invitationRows, teamRows] = await Promise.all([
    db
      .select({
        id: members.id,
        userId: members.userId,
        role: members.role,
        createdAt: members.createdAt,
        user: { id: users.id, name: users.name, email: users.email, image: users.image },
      })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(eq(members.organizationId, organizationId))
      .orderBy(asc(members.createdAt)),
    db
      .select({
        id: invitations.id,
        email: invitations.email,
        role: invitations.role,
        teamId: invitations.teamId,
        status: invitations.status,
        expiresAt: invitations.expiresAt,
        createdAt: invitations.createdAt,
        // Who sent it, as the members list shows them; null once their account is gone.
        inviter: { name: users.name, image: users.image },
      })
      .from(invitations)
      .leftJoin(users, eq(users.id, invitations.inviterId))
      // The pages show pending invitations only; accepted, rejected and canceled ones are history.
      .where(and(eq(invitations.organizationId, organizationId), eq(invitations.status, 'pending')))
      .orderBy(asc(invitations.createdAt)),
    readTeams(db, organizationId),
  ])
  return {
    members: memberRows,
    // An invitation made without a role gives the plugin's default one, as Better Auth reads it.
    invitations: invitationRows.map((invitation) => ({ ...invitation, role: invitation.role ?? 'member' })),
    teams: teamRows,
  }
}

function readTeams(db: Database, organizationId: string, memberUserId?: string) {
  const columns = { id: teams.id, name: teams.name, createdAt: teams.createdAt, updatedAt: teams.updatedAt }
  if (!memberUserId) {
    return db.select(columns).from(teams).where(eq(teams.organizationId, organizationId)).orderBy(asc(teams.createdAt))
  }
  return db
    .select(columns)
    .from(teams)
    .innerJoin(teamMembers, eq(teamMembers.teamId, teams.id))
    .where(and(eq(teams.organizationId, organizationId), eq(teamMembers.userId, memberUserId)))
    .orderBy(asc(teams.createdAt))
}

/** The teams of the organization that `userId` is in. */
export function readTeamsOfMember(db: Database, organizationId: string, userId: string) {
  return readTeams(db, organizationId, userId)
}

/** The organization's own roles (dynamic access control), by name, with what each permits. */
export async function readCustomRoles(db: Database, organizationId: string) {
  const rows = await db
    .select({ id: organizationRoles.id, role: organizationRoles.role, permission: organizationRoles.permission })
    .from(organizationRoles)
    .where(eq(organizationRoles.organizationId, organizationId))
  return rows
    .map(({ id, role, permission }) => ({
      id,
      role,
      permission: parseStoredPermission(permission) as Record<string, string[]>,
    }))
    .sort((a, b) => a.role.localeCompare(b.role))
}
