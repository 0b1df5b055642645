import { APIError } from 'better-auth/api'
import { organization } from 'better-auth/plugins'
import { eq } from 'drizzle-orm'
import { organizationLimits } from '#/features/organizations/organization-names'
import { ac, roles } from '#/lib/access-control'
import { type Locale, locales } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { isLocale } from '#/paraglide/runtime'
import { sendAuthEmail } from '#/server/auth/auth-emails'
import type { Database } from '#/server/db/client'
import { users } from '#/server/db/schema'
import { invitationEmail } from '#/server/email/templates'
import { getEnv } from '#/server/env'
import { deleteOrganizationFiles } from '#/server/files/file-jobs'
import { organizationDeletionRefusal } from '#/server/organization-deletion'
import { notify, publishEvent } from '#/server/organization-events'
import { assertInvitationCapacity, memberLimit, PlanLimitError } from '#/server/plan-limits'
import { type Actor, currentActor, recordActivity } from './organization-activity'

const invitationSeconds = organizationLimits.invitationDays * 24 * 60 * 60

/** Where an invitation is accepted: /{lang}/accept-invitation/{id}. */
export function invitationUrl(id: string, locale: Locale): string {
  return `${getEnv().APP_URL}/${locale}/accept-invitation/${encodeURIComponent(id)}`
}

/** A membership as webhook receivers get it (member.added, member.removed). */
export function memberEvent(
  type: 'member.added' | 'member.removed',
  organizationId: string,
  member: { id: string; role: string; createdAt: Date },
  user: { id: string; name: string; email: string },
) {
  return {
    organizationId,
    type,
    data: {
      memberId: member.id,
      userId: user.id,
      name: user.name,
      email: user.email,
      role: member.role,
      joinedAt: new Date(member.createdAt).toISOString(),
    },
  }
}

/**
 * Better Auth's organization plugin as Hatch uses it: the access-control definition of src/lib/access-control.ts,
 * teams, custom roles per organization, 7-day invitations emailed in the invitee's language, and an activity log
 * written from the plugin's hooks.
 */
export function organizationPlugin(db: Database) {
  // The hooks name the member acted upon; the actor is whoever is signed in for the request.
  const log = async (
    organizationId: string,
    action: Parameters<typeof recordActivity>[1]['action'],
    details: Record<string, string>,
    fallbackActor?: Actor,
  ) => {
    const actor = currentActor() ?? fallbackActor
    if (actor) await recordActivity(db, { organizationId, actor, action, details })
  }
  return organization({
    ac,
    roles,
    creatorRole: 'owner',
    teams: { enabled: true, allowRemovingAllTeams: true, defaultTeam: { enabled: false } },
    dynamicAccessControl: { enabled: true, maximumRolesPerOrganization: 50 },
    invitationExpiresIn: invitationSeconds,
    // Answering an invitation proves nothing until the address is confirmed: an account made with someone else's
    // address could otherwise take the place (and role) meant for them, if it learned the invitation's id.
    requireEmailVerificationOnInvitation: true,
    // The plan's member limit (src/lib/plans.ts), checked by the plugin when someone joins.
    membershipLimit: async (_user, organization) => (await memberLimit(db, organization.id)).limit,
    schema: {
      invitation: {
        additionalFields: {
          locale: { type: 'string', required: false, input: true, defaultValue: locales[0] },
        },
      },
    },
    sendInvitationEmail: async ({ id, email, role, organization, inviter, invitation }) => {
      const stored = (invitation as { locale?: unknown }).locale
      const locale: Locale = typeof stored === 'string' && isLocale(stored) ? stored : locales[0]
      await sendAuthEmail(db, { locale }, (context) =>
        invitationEmail({
          to: email,
          inviterName: inviter.user.name,
          organizationName: organization.name,
          role: rolesLabel(role, locale),
          url: invitationUrl(id, locale),
          days: organizationLimits.invitationDays,
          ...context,
        }),
      )
    },
    organizationHooks: {
      beforeDeleteOrganization: async ({ organization }) => {
        const refusal = await organizationDeletionRefusal(db, [organization.id])
        if (refusal) throw new APIError('BAD_REQUEST', refusal)
      },
      // Its rows went with it (cascades); its logo and books' files go through the queue.
      afterDeleteOrganization: async ({ organization }) => deleteOrganizationFiles(organization.id),
      // Invitations promise places: refused once members and pending invitations fill the plan.
      beforeCreateInvitation: async ({ invitation }) => {
        try {
          await assertInvitationCapacity(db, invitation.organizationId)
        } catch (error) {
          if (!(error instanceof PlanLimitError)) throw error
          throw new APIError('FORBIDDEN', { code: error.code, message: error.message, limit: error.limit })
        }
      },
      afterCreateOrganization: async ({ organization, user }) =>
        log(organization.id, 'organization_created', { name: organization.name }, user),
      afterUpdateOrganization: async ({ organization, user }) => {
        if (organization) await log(organization.id, 'organization_updated', { name: organization.name }, user)
      },
      afterAddMember: async ({ member, user, organization }) => {
        await log(organization.id, 'member_added', { name: user.name, email: user.email, role: member.role })
        await publishEvent(db, memberEvent('member.added', organization.id, member, user))
      },
      afterRemoveMember: async ({ member, user, organization }) => {
        const actor = currentActor()
        const action = actor?.id === user.id ? 'member_left' : 'member_removed'
        await log(organization.id, action, { name: user.name, email: user.email }, user)
        await publishEvent(db, memberEvent('member.removed', organization.id, member, user))
        if (action === 'member_removed') {
          await notify(db, [user.id], { type: 'removed', params: { organization: organization.name } })
        }
      },
      afterUpdateMemberRole: async ({ member, previousRole, user, organization }) => {
        await log(organization.id, 'member_role_changed', { name: user.name, from: previousRole, to: member.role })
        if (currentActor()?.id !== user.id) {
          await notify(db, [user.id], {
            type: 'role_changed',
            organizationId: organization.id,
            params: { organization: organization.name, role: member.role },
            link: '/console/organization',
          })
        }
      },
      afterCreateInvitation: async ({ invitation, inviter, organization }) => {
        await log(organization.id, 'member_invited', { email: invitation.email, role: invitation.role }, inviter)
        // Someone who already has an account sees it in the bell too (the invitation email goes either way).
        const [invitee] = await db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.email, invitation.email.toLowerCase()))
        if (invitee) {
          await notify(db, [invitee.id], {
            type: 'invited',
            params: { organization: organization.name, inviter: inviter.name },
            link: `/accept-invitation/${invitation.id}`,
          })
        }
      },
      afterCancelInvitation: async ({ invitation, cancelledBy, organization }) =>
        log(organization.id, 'invitation_canceled', { email: invitation.email }, cancelledBy),
      afterRejectInvitation: async ({ invitation, user, organization }) =>
        log(organization.id, 'invitation_rejected', { email: invitation.email }, user),
      afterAcceptInvitation: async ({ member, user, organization }) => {
        await log(organization.id, 'member_joined', { name: user.name, email: user.email, role: member.role }, user)
        await publishEvent(db, memberEvent('member.added', organization.id, member, user))
      },
      afterCreateTeam: async ({ team, user, organization }) =>
        log(organization.id, 'team_created', { team: team.name }, user),
      afterUpdateTeam: async ({ team, user, organization }) => {
        if (team) await log(organization.id, 'team_renamed', { team: team.name }, user)
      },
      afterDeleteTeam: async ({ team, user, organization }) =>
        log(organization.id, 'team_deleted', { team: team.name }, user),
      afterAddTeamMember: async ({ team, user, organization }) =>
        log(organization.id, 'team_member_added', { team: team.name, name: user.name }),
      afterRemoveTeamMember: async ({ team, user, organization }) =>
        log(organization.id, 'team_member_removed', { team: team.name, name: user.name }),
    },
  })
}
