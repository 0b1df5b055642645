// Starts the built production server for the end-to-end tests, on a database nobody else uses:
// a fresh PGlite folder, or a fresh PostgreSQL database on the server DATABASE_URL names (dropped on exit).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { build } from '../../scripts/build.ts'
import { buildIsStale } from '../../scripts/project.ts'
import { startProductionServer } from '../../scripts/serve.ts'

const cleanups: (() => Promise<void> | void)[] = []

async function createFreshPostgresDatabase(adminUrl: string): Promise<void> {
  const name = `hatch_e2e_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  process.env.DATABASE_URL = url.href
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    await client.query(`drop database if exists ${name} with (force)`)
    await client.end()
  })
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
