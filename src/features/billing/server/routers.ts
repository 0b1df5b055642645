import { billingRouter } from './billing-router'

/** Billing's procedures, joined to the app router (src/server/trpc/root.ts) under this name. */
export const routers = { billing: billingRouter }
