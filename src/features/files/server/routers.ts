import { filesRouter } from './files-router'

/** The files' procedures, joined to the app router (src/server/trpc/root.ts) under these names. */
export const routers = { files: filesRouter }
