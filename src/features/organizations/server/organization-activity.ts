import { tryGetCurrentAuthEndpointContext } from '@better-auth/core/context'
import type { appActivityActions } from '#/activity-actions.gen'
import type { Database } from '#/server/db/client'
import { organizationActivity } from '#/server/db/schema'

/** Everything the activity log records; the console translates each as `activity_{action}`. */
export const activityActions = [
  'organization_created',
  'organization_updated',
  'member_invited',
  'invitation_canceled',
  'invitation_rejected',
  'member_joined',
  'member_added',
  'member_removed',
  'member_left',
  'member_role_changed',
  'ownership_transferred',
  'team_created',
  'team_renamed',
  'team_deleted',
  'team_member_added',
  'team_member_removed',
  'role_created',
  'role_updated',
  'role_deleted',
] as const

/** The core's actions and the installed apps' (their activity.ts). */
export type ActivityAction = (typeof activityActions)[number] | keyof typeof appActivityActions

export interface Actor {
  id: string
  name: string
}

export async function recordActivity(
  db: Pick<Database, 'insert'>,
  entry: { organizationId: string; actor: Actor; action: ActivityAction; details?: Record<string, string> },
): Promise<void> {
  await db.insert(organizationActivity).values({
    organizationId: entry.organizationId,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    action: entry.action,
    details: entry.details ?? {},
  })
}

/**
 * Who made the request Better Auth is handling: its organization hooks name the member acted upon, not the one acting,
 * so the actor comes from the endpoint's session.
 */
export function currentActor(): Actor | undefined {
  const context = tryGetCurrentAuthEndpointContext() as
    | { context?: { session?: { user?: { id: string; name: string } } | null } }
    | undefined
  const user = context?.context?.session?.user
  return user ? { id: user.id, name: user.name } : undefined
}
