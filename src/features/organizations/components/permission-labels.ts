import type { Resource } from '#/lib/access-control'
import { appResourceLabels } from '#/lib/app-permissions.gen'
import { m } from '#/paraglide/messages'

/** Each resource and action of src/lib/access-control.ts as people read it. */
export const resourceLabels: Record<Resource, () => string> = {
  organization: m.perm_resource_organization,
  member: m.perm_resource_member,
  invitation: m.perm_resource_invitation,
  team: m.perm_resource_team,
  ac: m.perm_resource_ac,
  activity: m.perm_resource_activity,
  ...appResourceLabels,
}

const actionLabels: Record<string, (() => string) | undefined> = {
  create: m.perm_action_create,
  read: m.perm_action_read,
  update: m.perm_action_update,
  delete: m.perm_action_delete,
  cancel: m.perm_action_cancel,
  manage: m.perm_action_manage,
  'update-own': m.perm_action_update_own,
  'delete-own': m.perm_action_delete_own,
}

export function actionLabel(action: string): string {
  return actionLabels[action]?.() ?? action
}
