import { webhooksRouter } from './webhooks-router'

/** The webhooks' procedures, joined to the app router (src/server/trpc/root.ts) under these names. */
export const routers = { webhooks: webhooksRouter }
