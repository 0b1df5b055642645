import { defineServerApp } from '#/server/app-manifest'

/** Notifications: what the core and the apps report to people (src/server/organization-events.ts), in their bell and by email. */
export const serverApp = defineServerApp({
  name: 'notifications',
  notices: async () => ({ notify: (await import('./notify')).notify }),
})
