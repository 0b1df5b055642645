import { paddleCheckoutRouter } from './paddle-checkout-router'

/** Paddle's procedures, joined to the app router (src/server/trpc/root.ts) under these names. */
export const routers = { paddle: paddleCheckoutRouter }
