import { defineJob } from '#/server/jobs/queue'
import { log } from '#/server/log'
import { reconcileBilling } from './operator-tasks'

/** Once a day, the ledger is compared with the payment provider and repaired where an event was missed. */
export const reconcileJob = defineJob<object>({
  name: 'billing-reconcile',
  retryLimit: 3,
  retryDelaySeconds: 300,
  schedule: { cron: '23 3 * * *', periodSeconds: 86_400 },
  run: async (db) => {
    const { provider, drifted } = await reconcileBilling(db)
    if (drifted.length > 0) log().info({ provider, drifted: drifted.length }, 'billing reconciled with the provider')
  },
})
