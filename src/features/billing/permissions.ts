import { m } from '#/paraglide/messages'

const statements = {
  /** The organization's plan, subscription and orders: `read` sees them, `manage` buys and changes them. */
  billing: ['read', 'manage'],
} as const

type BillingAction = (typeof statements.billing)[number][]

/** Billing's resource among the organization permissions (src/lib/access-control.ts), who has it, and its words. */
export const permissions = {
  statements,
  roles: {
    owner: { billing: ['read', 'manage'] as BillingAction },
    admin: { billing: ['read'] as BillingAction },
    member: { billing: [] as BillingAction },
  },
  labels: { billing: m.perm_resource_billing },
}
