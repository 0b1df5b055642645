// The scheduled backup as the job queue runs it: it records each run for Console → System, the metrics and the launch
// checklist, and removes what the retention no longer keeps from the same place.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { desc } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backupName } from '#/server/backups/backup-store'
import { backupJob, backupStatus } from '#/server/backups/backups'
import { backupRuns } from '#/server/db/schema'
import { parseEnv } from '#/server/env'
import { localFileStorage } from '#/server/files/local-storage'
import { testOrigin } from './auth-requests'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

const dayMs = 86_400_000

describe.each(coreEngines)('the scheduled backup on %s', (engine) => {
  let database: FreshDatabase
  const destination = mkdtempSync(path.join(tmpdir(), 'hatch-scheduled-backups-'))
  const files = mkdtempSync(path.join(tmpdir(), 'hatch-scheduled-files-'))
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
  })
  afterAll(async () => {
    await database.dispose()
    rmSync(destination, { recursive: true, force: true })
    rmSync(files, { recursive: true, force: true })
  })

  it('takes a backup, records it, and keeps the newest of the last 7 days and 4 weeks', async () => {
    // Thirty earlier nightly backups, finished (each has its manifest).
    const now = Date.now()
    const earlier = Array.from({ length: 30 }, (_, index) => backupName(new Date(now - (index + 1) * dayMs)))
    for (const name of earlier) {
      mkdirSync(path.join(destination, name))
      writeFileSync(path.join(destination, name, 'manifest.json'), '{}')
    }
    const env = parseEnv({ BACKUP_TO: destination })
    const job = backupJob(env, {
      connection: database.connection,
      storage: localFileStorage({ root: files, appUrl: testOrigin, secret: 'a-secret-of-at-least-thirty-two-chars' }),
    })
    expect(job.schedule).toEqual({ cron: '20 3 * * *', periodSeconds: 86_400, atStart: false })
    await job.run(database.connection.db, {}, { jobId: 'nightly', retryCount: 0, retryLimit: 2, last: false })

    const [run] = await database.connection.db.select().from(backupRuns).orderBy(desc(backupRuns.id)).limit(1)
    expect(run).toMatchObject({ trigger: 'scheduled', status: 'succeeded', error: null })
    expect(run?.location).toMatch(new RegExp(`^${destination}/hatch-backup-\\d{8}T\\d{9}Z$`))
    expect(existsSync(path.join(run?.location ?? '', 'manifest.json'))).toBe(true)
    expect(run?.bytes).toBeGreaterThan(1000)

    const kept = readdirSync(destination).sort().reverse()
    // The new one and the six days before it, each the newest of its day…
    expect(kept.slice(0, 7)).toEqual([path.basename(run?.location ?? ''), ...earlier.slice(0, 6)])
    // …and at most three older ones, each the newest of an earlier week: 8 to 10 in all, of 31. Thirty days back is
    // before the fourth week whatever today is.
    expect(kept.length).toBeGreaterThanOrEqual(8)
    expect(kept.length).toBeLessThanOrEqual(10)
    expect(kept).not.toContain(earlier[29])

    const status = await backupStatus(database.connection.db, env)
    expect(status).toMatchObject({ latest: { location: run?.location, bytes: run?.bytes }, lastFailure: null })
  }, 60_000)

  it('records a failed run, shown after the latest success until another succeeds', async () => {
    const env = parseEnv({ BACKUP_TO: '/dev/null/backups' })
    const job = backupJob(env, {
      connection: database.connection,
      storage: localFileStorage({ root: files, appUrl: testOrigin, secret: 'a-secret-of-at-least-thirty-two-chars' }),
    })
    await expect(
      job.run(database.connection.db, {}, { jobId: 'nightly-2', retryCount: 0, retryLimit: 2, last: false }),
    ).rejects.toThrow()
    const status = await backupStatus(database.connection.db, env)
    expect(status.latest).not.toBeNull()
    expect(status.lastFailure?.error).toMatch(/ENOTDIR|not a directory/)
    expect(backupJob(parseEnv({ BACKUP_SCHEDULE: 'off' })).schedule).toBeUndefined()
  }, 60_000)
})
