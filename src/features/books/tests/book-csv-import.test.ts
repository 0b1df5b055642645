// The CSV import (books.import) with broken files: malformed rows and quotes, Latin-1 bytes, UTF-16 with its BOM,
// UTF-8 BOMs, huge lines, formula cells, and a 50 MB file; over the real /api/trpc handler as the browser sends it.
import fc from 'fast-check'
import superjson from 'superjson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseBooksCsv } from '#/features/books/server/book-csv'
import { handleTrpcRequest } from '#/server/trpc/handler'
import { hostileText } from '../../../../tests/fuzz/arbitraries'
import {
  assertSafeAnswer,
  describeInput,
  fuzz,
  fuzzTimeout,
  observe,
  refusalWatch,
} from '../../../../tests/fuzz/fuzz-support'
import { testOrigin } from '../../../../tests/integration/auth-requests'
import { organizationHarness, type Person } from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'

const cell = fc.oneof(
  fc.string({ maxLength: 30 }),
  hostileText.filter((text) => text.length < 2_000),
  fc.constantFrom(
    '"',
    '""',
    '"a""b"',
    '"unclosed',
    'a"b',
    ',',
    '\r\n',
    '\n',
    '=1+1',
    '+SUM(A1)',
    '-2',
    '@x',
    '\t=x',
    "'=x",
    '9780306406157',
    '1999',
    'zh',
    '書名',
  ),
)
const header = fc.oneof(
  fc.constant('title,authors,isbn,published_year,language,tags,cover_url,description'),
  fc.constantFrom(
    'Title;Author;Year',
    'title',
    'TITLE, Author ,tag',
    'name,price',
    '',
    '\ufefftitle,authors',
    'title,title,title',
  ),
)
const rows = fc.array(fc.array(cell, { maxLength: 10 }), { maxLength: 8 })
const separator = fc.constantFrom(',', ';', '\t', '|')
const lineEnd = fc.constantFrom('\n', '\r\n', '\r')

/** What the browser's `file.text()` makes of a file written in another encoding: UTF-8 decoding of those bytes. */
const asReadByBrowser = (text: string, encoding: 'utf8' | 'latin1' | 'utf16le-bom' | 'utf8-bom') => {
  if (encoding === 'utf8') return text
  if (encoding === 'utf8-bom') return `\ufeff${text}`
  const bytes =
    encoding === 'latin1'
      ? Buffer.from(text, 'latin1')
      : Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
  return new TextDecoder('utf-8').decode(bytes)
}

const csvFiles = fc
  .tuple(
    header,
    rows,
    separator,
    lineEnd,
    fc.constantFrom('utf8', 'latin1', 'utf16le-bom', 'utf8-bom') as fc.Arbitrary<
      'utf8' | 'latin1' | 'utf16le-bom' | 'utf8-bom'
    >,
    fc.nat({ max: 20 }),
  )
  .map(([head, body, sep, end, encoding, hugeLine]) => {
    const lines = [head, ...body.map((row) => row.join(sep))]
    // Now and then one line of a megabyte.
    if (hugeLine === 0) lines.push(`${'x'.repeat(1024 * 1024)},a`)
    return asReadByBrowser(lines.join(end), encoding)
  })

describe('parsing any CSV file', () => {
  it(
    'never throws, and every valid row and every issue names a line of the file',
    async () => {
      await fuzz(
        'csv parseBooksCsv',
        fc.asyncProperty(csvFiles, async (csv) => {
          const parsed = parseBooksCsv(csv)
          for (const issue of parsed.issues) expect(issue.line).toBeGreaterThanOrEqual(1)
          for (const { line } of parsed.books) expect(line).toBeGreaterThanOrEqual(2)
        }),
      )
    },
    fuzzTimeout(),
  )
})

describe.each(engines)('books.import on %s', (engine) => {
  let database: FreshDatabase
  let h: ReturnType<typeof organizationHarness>
  let owner: Person
  const db = () => database.connection.db
  const importCsv = async (csv: string, dryRun: boolean) =>
    observe(
      await handleTrpcRequest(
        new Request(`${testOrigin}/api/trpc/books.import`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: testOrigin, cookie: owner.cookie },
          body: JSON.stringify(superjson.serialize({ csv, dryRun })),
        }),
        db(),
      ),
    )

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    owner = await h.signUp('Csv Owner')
    await h.createOrganization(owner, 'Csv Library', 'csv-library')
  })
  afterAll(async () => {
    await database?.dispose()
  })

  it(
    'answers every file with a preview or a translated refusal; a refused import writes nothing',
    async () => {
      const watch = refusalWatch(db(), 'trpc books.import (CSV files)')
      await watch.start()
      await fuzz(
        'trpc books.import (CSV files)',
        fc.asyncProperty(csvFiles, fc.boolean(), async (csv, dryRun) => {
          const answer = await importCsv(csv, dryRun)
          assertSafeAnswer('books.import', answer, { csv, dryRun })
          if (answer.status >= 400)
            expect(answer.text, 'a refusal carries a code the client translates').toMatch(
              /"appCode":"[A-Z_]+"|"code":"BAD_REQUEST"/,
            )
          if (!dryRun) await watch.record(answer.status, describeInput(csv))
        }),
      )
      await watch.finish()
    },
    fuzzTimeout(),
  )

  it('refuses a 50 MB file with a translated "too large", and writes nothing', async () => {
    const csv = `title\n${'A fifty megabyte book title,\n'.repeat(Math.ceil((50 * 1024 * 1024) / 29))}`
    const answer = await importCsv(csv, false)
    assertSafeAnswer('books.import 50 MB', answer, '50 MB')
    expect(answer.status).toBe(400)
    expect(answer.text).toContain('validation_import_too_large')
  }, 120_000)
})
