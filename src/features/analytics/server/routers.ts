import { analyticsRouter } from './analytics-router'

/** The analytics' procedures, joined to the app router (src/server/trpc/root.ts) under these names. */
export const routers = { analytics: analyticsRouter }
