// A throwaway PostgreSQL database on the server an admin URL points at; shared by the integration tests and the
// end-to-end server. No path aliases: the end-to-end server runs this file with Node's type stripping.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

async function runAdminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * Creates a database named `<prefix>_<random>`, empty or a copy of `template`; `drop` deletes it, closing any
 * connection left open.
 */
export async function createThrowawayPostgresDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  await runAdminQuery(adminUrl, `create database ${name}${template ? ` template ${template}` : ''}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { url: url.href, drop: () => runAdminQuery(adminUrl, `drop database if exists ${name} with (force)`) }
}
