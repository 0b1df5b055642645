import { assistantRouter } from './assistant-router'

/** The assistant's procedures, joined to the app router (src/server/trpc/root.ts) under these names. */
export const routers = { assistant: assistantRouter }
