import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startJobQueue, stopJobQueue } from '#/server/jobs/queue'
import { organizationHarness } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'

const until = async (check: () => Promise<boolean>, what: string) => {
  for (let waited = 0; waited < 45_000; waited += 200) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`gave up waiting for ${what}`)
}

// A busy machine (the whole suite on two cores) may take a while to reach a job: it waits up to 45 s.
describe.each(engines)('a large import on %s', { timeout: 90_000 }, (engine) => {
  let database: FreshDatabase
  const db = () => database.connection.db

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    await startJobQueue(database.connection, { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 })
  })
  afterAll(async () => {
    await stopJobQueue()
    await database.dispose()
  })

  it('imports a file of more than 1,000 rows through the queue, reporting its progress until it is done', async () => {
    const h = organizationHarness(db())
    const importer = await h.signUp('Quinn Queue')
    await h.givePlan((await h.activeOrganizationOf(importer)) ?? '', 'pro')
    const rows = ['title,authors']
    for (let index = 0; index < 1_500; index++) rows.push(`Queued ${index},Author ${index}`)
    const answer = await h.trpc<{ imported: number; importId: string | null; rowCount: number }>(
      'mutation',
      'books.import',
      importer.cookie,
      { csv: rows.join('\n'), dryRun: false },
    )
    expect(answer.data, 'answered before the rows are written').toMatchObject({ imported: 0, rowCount: 1_500 })
    const importId = answer.data?.importId
    expect(importId).toBeTruthy()
    const progress = async () =>
      (
        await h.trpc<{ id: string; status: string; imported: number }[]>('query', 'books.imports', importer.cookie)
      ).data?.find((entry) => entry.id === importId)
    await until(async () => (await progress())?.status === 'done', 'the import job')
    expect(await progress()).toMatchObject({ imported: 1_500 })
    expect((await h.trpc('query', 'books.count', importer.cookie, {})).data).toBe(1_500)
  })
})
