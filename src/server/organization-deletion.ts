import { serverApps } from './apps.gen'
import type { Database } from './db/client'

/** An installed app will not let these organizations go yet (billing: a subscription still renews). */
export class OrganizationDeletionRefused extends Error {
  override name = 'OrganizationDeletionRefused'
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Why these organizations may not be deleted now, as the first installed app that objects says; undefined when none
 * does. Asked before an organization is deleted, and before an account deletion takes the organizations it alone
 * belongs to.
 */
export async function organizationDeletionRefusal(
  db: Pick<Database, 'select'>,
  organizationIds: readonly string[],
): Promise<{ code: string; message: string } | undefined> {
  if (organizationIds.length === 0) return undefined
  for (const app of serverApps) {
    if (!app.organizationDeletionRefusal) continue
    const refusal = await (await app.organizationDeletionRefusal())(db, organizationIds)
    if (refusal) return refusal
  }
  return undefined
}
