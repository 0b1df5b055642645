import { ssoRouter } from './sso-router'

/** Single sign-on's procedures, joined to the app router (src/server/trpc/root.ts) under these names. */
export const routers = { sso: ssoRouter }
