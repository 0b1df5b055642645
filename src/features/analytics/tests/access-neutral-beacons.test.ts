// What a server remembers of who may do what (src/server/auth/organization-access.ts) is forgotten whenever a request
// that may change access runs. A beacon changes no one's access (accessNeutralPosts in the app's server manifest), so
// a busy site's page views do not empty that memory for every other request.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forgettingAccessOnChange, readMemberships } from '#/server/auth/organization-access'
import { members } from '#/server/db/schema'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'

describe.each(engines)('a page view beacon on %s', (engine) => {
  let database: FreshDatabase
  let person: Person
  const db = () => database.connection.db
  const remembered = () => readMemberships(db(), person.id, 60_000)
  const post = (pathname: string) =>
    forgettingAccessOnChange(new Request(`${testOrigin}${pathname}`, { method: 'POST' }), async () => undefined)

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    person = await organizationHarness(db()).signUp('Bea Beacon')
  })
  afterAll(() => database.dispose())

  it('leaves what the server remembers of access alone; any other POST forgets it', async () => {
    expect(await remembered(), 'the workspace, now remembered').toHaveLength(1)
    await db().delete(members).where(eq(members.userId, person.id))
    await post('/api/insights')
    expect(await remembered(), 'a beacon forgets nothing').toHaveLength(1)
    await post('/api/trpc/organizations.removeMember')
    expect(await remembered(), 'a change forgets').toEqual([])
  })
})
