import type { Database } from '#/server/db/client'
import type { ForeignRecords } from '../../../../tests/integration/foreign-records'
import { organizationHarness } from '../../../../tests/integration/organization-fixtures'

export const foreignRecordKinds = ['checkout']

/**
 * An open checkout of the other organization, started by its owner as a buyer starts one, and billing's procedures
 * that take one, as the authorization matrix calls them.
 */
export async function foreignRecordInputs(db: Database, foreign: ForeignRecords): Promise<Record<string, unknown>> {
  const checkout = await organizationHarness(db).trpc<{ url: string }>(
    'mutation',
    'billing.startCheckout',
    foreign.ownerCookie,
    { planId: 'pro', interval: 'monthly', currency: 'USD' },
  )
  const checkoutId = checkout.data?.url.slice(checkout.data.url.lastIndexOf('/') + 1)
  if (!checkoutId) throw new Error(`the other organization's checkout did not start: ${JSON.stringify(checkout)}`)
  return {
    'billing.local.get': { id: checkoutId },
    'billing.local.settle': { id: checkoutId, outcome: 'pay' },
  }
}
