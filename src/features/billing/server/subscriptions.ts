import { and, desc, eq, inArray } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { billingSubscriptions } from './schema'

/** Subscription states that still grant the plan (past_due: the provider is retrying the payment). */
export const grantingStatuses = ['trialing', 'active', 'past_due'] as const

/** The organization's subscription that grants its plan now, if it has one. */
export async function grantingSubscription(db: Pick<Database, 'select'>, organizationId: string) {
  const [subscription] = await db
    .select()
    .from(billingSubscriptions)
    .where(
      and(
        eq(billingSubscriptions.organizationId, organizationId),
        inArray(billingSubscriptions.status, [...grantingStatuses]),
      ),
    )
    .orderBy(desc(billingSubscriptions.updatedAt))
    .limit(1)
  return subscription
}

/**
 * The first of these organizations whose subscription still renews: deleting it would leave the provider charging
 * for an organization that is gone, so it is cancelled at period end first.
 */
export async function organizationWithRenewingSubscription(
  db: Pick<Database, 'select'>,
  organizationIds: readonly string[],
): Promise<string | undefined> {
  if (organizationIds.length === 0) return undefined
  const [row] = await db
    .select({ organizationId: billingSubscriptions.organizationId })
    .from(billingSubscriptions)
    .where(
      and(
        inArray(billingSubscriptions.organizationId, [...organizationIds]),
        inArray(billingSubscriptions.status, [...grantingStatuses]),
        eq(billingSubscriptions.cancelAtPeriodEnd, false),
      ),
    )
    .limit(1)
  return row?.organizationId
}

export const renewingSubscriptionRefusal = {
  code: 'ORGANIZATION_HAS_SUBSCRIPTION',
  message: 'Cancel the subscription (at period end) before deleting the organization',
} as const
