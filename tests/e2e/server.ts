// Starts the built production server for the end-to-end tests, on a database nobody else uses:
// a fresh PGlite folder, or a fresh PostgreSQL database on the server DATABASE_URL names (dropped on exit).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { build } from '../../scripts/build.ts'
import { buildIsStale } from '../../scripts/project.ts'
import { startProductionServer } from '../../scripts/serve.ts'
import { createThrowawayPostgresDatabase } from '../support/postgres-database.ts'

const cleanups: (() => Promise<void> | void)[] = []

async function createFreshPostgresDatabase(adminUrl: string): Promise<void> {
  const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_e2e')
  process.env.DATABASE_URL = database.url
  cleanups.push(database.drop)
}

process.env.PORT = process.env.E2E_PORT ?? '3211'
process.env.APP_URL = `http://localhost:${process.env.PORT}`
process.env.HATCH_DEBUG_ROUTES = '1'
const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-e2e-'))
process.env.DATA_DIR = dataDir
cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
if (process.env.DATABASE_URL) await createFreshPostgresDatabase(process.env.DATABASE_URL)

if (buildIsStale()) await build()
await startProductionServer({
  afterStop: async () => {
    for (const cleanup of cleanups) await cleanup()
  },
})
