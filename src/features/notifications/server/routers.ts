import { notificationsRouter } from './notifications-router'

/** The notifications' procedures, joined to the app router (src/server/trpc/root.ts) under these names. */
export const routers = { notifications: notificationsRouter }
