import { newsletterRouter } from './newsletter-router'

/** The newsletter's procedure, joined to the app router (src/server/trpc/root.ts) under this name. */
export const routers = { newsletter: newsletterRouter }
