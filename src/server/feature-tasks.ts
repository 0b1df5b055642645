import { closeOverdueLocalCheckouts } from '#/features/billing/server/local-checkout-router'
import {
  closeOverdueProviderCheckouts,
  reconcileBilling,
  replayBillingEvent,
} from '#/features/billing/server/operator-tasks'
import type { Database } from './db/client'
import { defineJob } from './jobs/queue'
import { log } from './log'
import { registerMaintenanceTask } from './maintenance'

// A composition root, beside trpc/root.ts and auth/auth.ts (the only files in src/server that import features; the
// import rules in .dependency-cruiser.cjs hold them to it): the features' background work and command-line tasks.

// The features' housekeeping, in the hourly maintenance job (src/server/maintenance.ts).
registerMaintenanceTask('closing overdue local checkouts', closeOverdueLocalCheckouts)
registerMaintenanceTask('closing overdue checkouts at the payment provider', closeOverdueProviderCheckouts)

// Once a day, the ledger is compared with the payment provider and repaired where an event was missed.
defineJob<object>({
  name: 'billing-reconcile',
  retryLimit: 3,
  retryDelaySeconds: 300,
  schedule: { cron: '23 3 * * *', periodSeconds: 86_400 },
  run: async (db) => {
    const { provider, drifted } = await reconcileBilling(db)
    if (drifted.length > 0) log().info({ provider, drifted: drifted.length }, 'billing reconciled with the provider')
  },
})

/** The features' operator tasks, run from the command line (scripts/admin.ts, scripts/seed.ts). */
export const featureTasks = {
  replayBillingEvent: (db: Database, eventId: string) => replayBillingEvent(db, eventId),
  reconcileBilling: (db: Database) => reconcileBilling(db),
}
