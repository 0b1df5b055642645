import { accountRouter } from '#/features/account/server/account-router'
import { apiKeysRouter } from '#/features/account/server/api-keys-router'
import { configurationRouter } from '#/features/configuration/server/configuration-router'
import { dashboardRouter } from '#/features/dashboard/server/dashboard-router'
import { organizationsRouter } from '#/features/organizations/server/organizations-router'
import { usersRouter } from '#/features/users/server/users-router'
import { appRouters } from './app-routers.gen'
import { createCallerFactory, createRouter } from './init'
import { settingsRouter } from './routers/settings'
import { systemRouter } from './routers/system'

// The one place where every area's router is composed (see docs/decisions/006-trpc-api.md); the installed apps'
// routers join through app-routers.gen.ts (docs/decisions/042).
export const appRouter = createRouter({
  ...appRouters,
  account: accountRouter,
  apiKeys: apiKeysRouter,
  configuration: configurationRouter,
  dashboard: dashboardRouter,
  organizations: organizationsRouter,
  settings: settingsRouter,
  system: systemRouter,
  users: usersRouter,
})

export type AppRouter = typeof appRouter

/** The procedures called in-process, with every check they make (the MCP server's tools use it). */
export const createAppCaller = createCallerFactory(appRouter)
export type AppCaller = ReturnType<typeof createAppCaller>
