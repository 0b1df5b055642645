import { and, eq } from 'drizzle-orm'
import { parseRoleList } from '#/lib/access-control'
import { invitations, members, organizations, teamMembers, teams, users } from '#/server/db/schema'
import { planLimitsOf } from '#/server/plan-limits'
import { AppError, createRouter, orgProcedure, publicProcedure } from '#/server/trpc/init'
import { activityListInput, invitationPreviewInput, memberListInput, transferOwnershipInput } from '../schemas'
import { recordActivity } from './organization-activity'
import { listActivity, listMembers } from './organization-lists'
import { readCustomRoles, readFullOrganization, readTeamsOfMember } from './organization-reads'

export const organizationsRouter = createRouter({
  /** The organization's plan and how much of each limit it uses, for every member (an action it would refuse shows as limited first). */
  planLimits: orgProcedure({}).query(({ ctx }) => planLimitsOf(ctx.db, ctx.organization.id)),
  /** The active organization's activity log, a page at a time, one kind of entry or all (owners and admins). */
  activity: orgProcedure({ activity: ['read'] })
    .input(activityListInput)
    .query(({ ctx, input }) => listActivity(ctx.db, ctx.organization.id, input)),

  /**
   * The active organization's members, searched, filtered by role and sorted on the server. Any member may see it, as
   * Better Auth lets any member read the full organization.
   */
  members: orgProcedure({})
    .input(memberListInput)
    .query(({ ctx, input }) => listMembers(ctx.db, ctx.organization.id, input)),

  /**
   * The active organization's members (with their users), invitations and teams, which Better Auth lets any member
   * read. A procedure rather than a call from the browser, so the pages that show it (invitations, teams) have it
   * from their loader: rendered on the server, no spinner once the page arrives.
   */
  full: orgProcedure({}).query(({ ctx }) => readFullOrganization(ctx.db, ctx.organization.id)),

  /** The active organization's own roles (dynamic access control), by name, for those who may read them. */
  customRoles: orgProcedure({ ac: ['read'] }).query(({ ctx }) => readCustomRoles(ctx.db, ctx.organization.id)),

  /** The teams of the active organization the caller is in. */
  myTeams: orgProcedure({}).query(({ ctx }) => readTeamsOfMember(ctx.db, ctx.organization.id, ctx.user.id)),

  /**
   * Who is in which team of the active organization. Any member may see it (Better Auth lets only a team's own
   * members list it, which leaves owners unable to see the teams they manage).
   */
  teamMemberships: orgProcedure({}).query(async ({ ctx }) =>
    ctx.db
      .select({ teamId: teamMembers.teamId, userId: teamMembers.userId })
      .from(teamMembers)
      .innerJoin(teams, eq(teams.id, teamMembers.teamId))
      .where(eq(teams.organizationId, ctx.organization.id)),
  ),

  /**
   * Makes another member the owner and the caller an admin, in one transaction (Better Auth would need two calls,
   * and between them the organization would have two owners or, failing the second, none to fall back on).
   */
  transferOwnership: orgProcedure({ organization: ['delete'] })
    .input(transferOwnershipInput)
    .mutation(async ({ ctx, input }) => {
      if (!ctx.member.roles.includes('owner')) {
        throw new AppError({
          code: 'FORBIDDEN',
          appCode: 'OWNER_ONLY',
          message: 'Only an owner can transfer ownership',
        })
      }
      await ctx.db.transaction(async (tx) => {
        const [target] = await tx
          .select({ id: members.id, role: members.role, userId: members.userId, name: users.name })
          .from(members)
          .innerJoin(users, eq(users.id, members.userId))
          .where(and(eq(members.id, input.memberId), eq(members.organizationId, ctx.organization.id)))
        if (!target) {
          throw new AppError({ code: 'NOT_FOUND', appCode: 'MEMBER_NOT_FOUND', message: 'Member not found' })
        }
        if (target.userId === ctx.user.id) {
          throw new AppError({ code: 'BAD_REQUEST', appCode: 'ALREADY_OWNER', message: 'You already own it' })
        }
        await tx.update(members).set({ role: 'owner' }).where(eq(members.id, target.id))
        const ownRoles = ctx.member.roles.filter((role) => role !== 'owner')
        await tx
          .update(members)
          .set({ role: [...new Set(['admin', ...ownRoles])].join(',') })
          .where(eq(members.id, ctx.member.id))
        await recordActivity(tx, {
          organizationId: ctx.organization.id,
          actor: { id: ctx.user.id, name: ctx.user.name },
          action: 'ownership_transferred',
          details: { name: target.name, from: parseRoleList(target.role).join(',') },
        })
      })
      return { transferred: true as const }
    }),

  /**
   * What the accept page shows before anyone signs in: the organization, who invited, and whether the invitation can
   * still be accepted. The id is the secret of the emailed link (32 random characters), so knowing it is the right to see this.
   */
  invitationPreview: publicProcedure.input(invitationPreviewInput).query(async ({ ctx, input }) => {
    const [row] = await ctx.db
      .select({
        id: invitations.id,
        email: invitations.email,
        role: invitations.role,
        status: invitations.status,
        expiresAt: invitations.expiresAt,
        organizationName: organizations.name,
        organizationLogo: organizations.logo,
        inviterName: users.name,
      })
      .from(invitations)
      .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
      .innerJoin(users, eq(users.id, invitations.inviterId))
      .where(eq(invitations.id, input.id))
    if (!row) return null
    const expired = row.status === 'pending' && row.expiresAt.getTime() <= Date.now()
    return {
      ...row,
      role: row.role ?? 'member',
      status: expired ? ('expired' as const) : (row.status as 'pending' | 'accepted' | 'rejected' | 'canceled'),
    }
  }),
})
