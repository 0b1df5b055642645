import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toIsbn13 } from '#/features/books/isbn'
import { type BookSortColumn, bookSortColumns } from '#/features/books/search'
import { purgeDeletedBooks } from '#/features/books/server'
import { ImportInterrupted, runBookImport } from '#/features/books/server/book-import-job'
import { bookImports, books } from '#/server/db/schema'
import {
  type OrganizationHarness,
  organizationHarness,
  type Person,
  type TrpcAnswer,
} from '../../../../tests/integration/organization-fixtures'
import { createFreshDatabase, engines, type FreshDatabase } from '../../../../tests/integration/test-databases'
import { book } from './book-fixtures'

/** A valid ISBN-13 made from nine digits (the check digit computed). */
const isbnFrom = (nineDigits: string) => toIsbn13(`${nineDigits}0`)

interface ListedBook {
  id: string
  title: string
  authors: string[]
  isbn: string | null
  tags: string[]
  createdByName: string | null
}
interface BookPage {
  items: ListedBook[]
  total: number
  nextCursor?: string
  previousCursor?: string
}
interface ImportReport {
  rowCount: number
  imported: number
  issueCount: number
  issueLineCount: number
  issues: { line: number; column: string | null; message: string }[]
  preview: { line: number; title: string }[]
}

describe.each(engines)('books on %s', (engine) => {
  let database: FreshDatabase
  let h: OrganizationHarness
  /** Olga owns the organization; Max is a member, Ada an admin, Rita holds a custom role that may only read. */
  let olga: Person
  let max: Person
  let ada: Person
  let rita: Person
  let nobody: Person
  let orgId: string
  const db = () => database.connection.db

  const query = <T>(path: string, person: Person | undefined, input?: unknown) =>
    h.trpc<T>('query', `books.${path}`, person?.cookie, input)
  const mutate = <T>(path: string, person: Person | undefined, input?: unknown) =>
    h.trpc<T>('mutation', `books.${path}`, person?.cookie, input)
  const create = async (person: Person, input: Record<string, unknown>) => {
    const answer = await mutate<{ id: string }>('create', person, input)
    expect(answer.error, `creating "${String(input.title)}"`).toBeUndefined()
    return answer.data?.id ?? ''
  }
  const stored = async () => db().select().from(books).where(eq(books.organizationId, orgId))
  const list = async (person: Person, input: Record<string, unknown> = {}) => {
    const answer = await query<BookPage>('list', person, input)
    expect(answer.error, 'the list answers').toBeUndefined()
    return answer.data as BookPage
  }

  beforeAll(async () => {
    database = await createFreshDatabase(engine)
    await database.connection.migrate()
    h = organizationHarness(db())
    olga = await h.signUp('Olga Owner')
    max = await h.signUp('Max Member')
    ada = await h.signUp('Ada Admin')
    rita = await h.signUp('Rita Reader')
    nobody = await h.signUp('Nora Nobody')
    orgId = await h.createOrganization(olga, 'Library', 'library')
    const role = await h.call('/organization/create-role', {
      body: { organizationId: orgId, role: 'reader', permission: { book: ['read'] } },
      cookie: olga.cookie,
    })
    expect(role.status, 'the owner creates a read-only role').toBe(200)
    await h.join(orgId, olga, max, 'member')
    await h.join(orgId, olga, ada, 'admin')
    await h.join(orgId, olga, rita, 'reader')
  })
  afterAll(() => database.dispose())

  describe('who may do what', () => {
    it('refuses every procedure to a signed-out caller, and writes nothing', async () => {
      const before = await stored()
      const calls: [string, 'query' | 'mutation', unknown][] = [
        ['list', 'query', {}],
        ['count', 'query', {}],
        ['facets', 'query', undefined],
        ['get', 'query', { id: 'x' }],
        ['exportCsv', 'query', {}],
        ['create', 'mutation', book('Anonymous')],
        ['update', 'mutation', { id: 'x', book: book('Anonymous') }],
        ['delete', 'mutation', { ids: ['x'] }],
        ['restore', 'mutation', { ids: ['x'] }],
        ['addTags', 'mutation', { ids: ['x'], tags: ['a'] }],
        ['import', 'mutation', { csv: 'title\nA', dryRun: false }],
      ]
      for (const [path, kind, input] of calls) {
        const answer = await h.trpc(kind, `books.${path}`, undefined, input)
        expect(answer.error?.code, `books.${path} signed out`).toBe('UNAUTHORIZED')
      }
      expect(await stored()).toEqual(before)
    })

    it('lets a member create and read, and change or delete only their own books', async () => {
      const mine = await create(max, book('Max’s notebook'))
      const olgas = await create(olga, book('Olga’s atlas'))
      expect((await list(max)).items.map((item) => item.title)).toEqual(
        expect.arrayContaining(['Max’s notebook', 'Olga’s atlas']),
      )

      expect((await mutate('update', max, { id: mine, book: book('Max’s notebook, 2nd ed.') })).error).toBeUndefined()
      const refused = await mutate('update', max, { id: olgas, book: book('Taken over') })
      expect(refused.error?.appCode).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
      expect(refused.error?.message).toBe('You are not allowed to access resource: book')
      // One book of someone else's in a bulk delete refuses all of it.
      const bulk = await mutate('delete', max, { ids: [mine, olgas] })
      expect(bulk.error?.appCode).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
      const titles = (await stored()).filter((row) => !row.deletedAt).map((row) => row.title)
      expect(titles).toEqual(expect.arrayContaining(['Max’s notebook, 2nd ed.', 'Olga’s atlas']))

      expect((await mutate('delete', max, { ids: [mine] })).error).toBeUndefined()
      expect((await mutate('restore', max, { ids: [mine] })).error).toBeUndefined()
    })

    it('lets an admin change and delete anyone’s book', async () => {
      const maxs = await create(max, book('Max’s draft'))
      expect((await mutate('update', ada, { id: maxs, book: book('Edited by Ada') })).error).toBeUndefined()
      expect((await mutate('addTags', ada, { ids: [maxs], tags: ['edited'] })).error).toBeUndefined()
      expect((await mutate('delete', ada, { ids: [maxs] })).error).toBeUndefined()
    })

    it('gives a custom role exactly what it was given: reading, nothing else', async () => {
      expect((await query('list', rita, {})).error).toBeUndefined()
      expect((await query('exportCsv', rita, {})).error).toBeUndefined()
      for (const [path, input] of [
        ['create', book('Rita’s')],
        ['import', { csv: 'title\nA', dryRun: true }],
      ] as const) {
        const answer = await mutate(path, rita, input)
        expect(answer.error?.appCode, `books.${path} as reader`).toBe('NOT_ALLOWED_TO_ACCESS_RESOURCE')
      }
      const olgas = await create(olga, book('Read only, please'))
      expect((await mutate('update', rita, { id: olgas, book: book('No') })).error?.code).toBe('FORBIDDEN')
      expect((await mutate('delete', rita, { ids: [olgas] })).error?.code).toBe('FORBIDDEN')
    })

    it('keeps organizations apart: another organization’s books cannot be read, changed or restored', async () => {
      const secret = await create(olga, book('Library secret', { isbn: isbnFrom('111111111') }))
      const deleted = await create(olga, book('Library bin'))
      await mutate('delete', olga, { ids: [deleted] })
      // Nora's active organization is her own workspace.
      expect((await list(nobody)).items).toEqual([])
      expect((await query('count', nobody, {})).data).toBe(0)
      const before = await stored()
      const attempts: [string, 'query' | 'mutation', unknown][] = [
        ['get', 'query', { id: secret }],
        ['update', 'mutation', { id: secret, book: book('Mine now') }],
        ['delete', 'mutation', { ids: [secret] }],
        ['restore', 'mutation', { ids: [deleted] }],
        ['addTags', 'mutation', { ids: [secret], tags: ['stolen'] }],
      ]
      for (const [path, kind, input] of attempts) {
        const answer = await h.trpc(kind, `books.${path}`, nobody.cookie, input)
        expect(answer.error?.appCode, `books.${path} across organizations`).toBe('BOOK_NOT_FOUND')
      }
      expect(await stored()).toEqual(before)
      // The same ISBN is free in another organization.
      expect((await mutate('create', nobody, book('Own copy', { isbn: isbnFrom('111111111') }))).error).toBeUndefined()
    })
  })

  describe('validation', () => {
    it.each([
      ['an empty title', { title: '  ' }, 'title', 'validation_required'],
      ['a 201-character title', { title: 'x'.repeat(201) }, 'title', 'validation_book_title_too_long'],
      ['an ISBN with a wrong check digit', { isbn: '978-0-306-40615-8' }, 'isbn', 'validation_isbn_invalid'],
      ['an ISBN-10 with a wrong check digit', { isbn: '0-306-40615-3' }, 'isbn', 'validation_isbn_invalid'],
      ['letters for an ISBN', { isbn: 'not-an-isbn' }, 'isbn', 'validation_isbn_invalid'],
      ['a year before printing', { publishedYear: 999 }, 'publishedYear', 'validation_year_invalid'],
      ['a year far in the future', { publishedYear: 3000 }, 'publishedYear', 'validation_year_invalid'],
      ['an unknown language', { language: 'klingon' }, 'language', 'validation_book_language_invalid'],
      ['eleven tags', { tags: 'a,b,c,d,e,f,g,h,i,j,k'.split(',') }, 'tags', 'validation_book_tags_too_many'],
      ['a 41-character tag', { tags: ['t'.repeat(41)] }, 'tags', 'validation_book_tag_too_long'],
      ['a javascript: cover', { coverUrl: 'javascript:alert(1)' }, 'coverUrl', 'validation_cover_url_invalid'],
      ['a data: cover', { coverUrl: 'data:image/png;base64,AAAA' }, 'coverUrl', 'validation_cover_url_invalid'],
      ['a long description', { description: 'd'.repeat(5001) }, 'description', 'validation_book_description_too_long'],
    ])('refuses %s, beside the field, and stores nothing', async (_, change, field, message) => {
      const before = (await stored()).length
      const answer = await mutate('create', olga, book('Valid title', change))
      expect(answer.error?.code).toBe('BAD_REQUEST')
      expect(answer.error?.fieldErrors?.[field]).toEqual([message])
      expect((await stored()).length).toBe(before)
    })

    it('accepts ISBNs as people type them, and counts an edition’s ISBN-10 and ISBN-13 as one book', async () => {
      const id = await create(olga, book('Fundamentals', { isbn: '978-0-306-40615-7', publishedYear: 1999 }))
      const [row] = await db().select().from(books).where(eq(books.id, id))
      expect(row?.isbn).toBe('9780306406157')
      const again = await mutate('create', ada, book('Same edition', { isbn: '0 306 40615 2' }))
      expect(again.error?.fieldErrors?.isbn).toEqual(['validation_isbn_taken'])
      // Once deleted, its ISBN is free again; restoring the first is then refused rather than making a duplicate.
      await mutate('delete', olga, { ids: [id] })
      const reuse = await create(ada, book('Same edition', { isbn: '0-306-40615-2' }))
      const restore = await mutate('restore', olga, { ids: [id] })
      expect(restore.error?.appCode).toBe('BOOK_ISBN_TAKEN')
      await mutate('delete', ada, { ids: [reuse] })
      expect((await mutate('restore', olga, { ids: [id] })).error).toBeUndefined()
    })

    it('refuses a malformed cursor with a clear code', async () => {
      const answer = await query('list', olga, { after: 'not-a-cursor' })
      expect(answer.error?.appCode).toBe('INVALID_CURSOR')
    })

    it('refuses a well-formed cursor whose values are not of the sort column’s type, for every sort', async () => {
      const cursor = (key: string, id = 'x') => Buffer.from(JSON.stringify([key, id])).toString('base64url')
      // A field added to the definition later gets a text no sort column's type takes.
      const wrongFor: Partial<Record<BookSortColumn, string[]>> = {
        createdAt: ['abc', '2026-02-30 10:00:00+00', '2026-01-01 25:00:00+00', '', '1e9'],
        updatedAt: ['abc', '2026-13-01 00:00:00+00'],
        publishedYear: ['abc', '1.5', '99999999999', '0x10', ''],
        title: ['a\u0000b'],
        authors: ['a\u0000b'],
        isbn: ['\u0000'],
        language: ['\u0000'],
      }
      for (const sort of bookSortColumns) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const [key, id] of [...(wrongFor[sort] ?? ['\u0000']).map((key) => [key, 'x']), ['fine', 'a\u0000b']]) {
            for (const place of ['after', 'before'] as const) {
              const answer = await query('list', olga, { sort, direction, [place]: cursor(key ?? '', id) })
              expect(
                [answer.status, answer.error?.appCode],
                `${sort} ${direction} ${place} ${JSON.stringify([key, id])}`,
              ).toEqual([400, 'INVALID_CURSOR'])
            }
          }
        }
      }
      // The cursors the list hands out still lead on, whatever the sort.
      for (const sort of bookSortColumns) {
        const first = await query<{ nextCursor?: string }>('list', olga, { sort, limit: 1 })
        if (!first.data?.nextCursor) continue
        const next = await query('list', olga, { sort, limit: 1, after: first.data.nextCursor })
        expect(next.error, sort).toBeUndefined()
      }
    })
  })

  describe('the list', () => {
    let owner: Person

    beforeAll(async () => {
      owner = await h.signUp('Sam Series')
      await h.createOrganization(owner, 'Series', 'series')
      const csv = ['title,authors,isbn,published_year,language,tags']
      for (let index = 0; index < 60; index++) {
        csv.push(`Volume ${String(index).padStart(2, '0')},Writer ${index % 3},,${1990 + (index % 10)},en,series`)
      }
      csv.push('红楼梦,曹雪芹,978-7-02-000220-7,1982,zh,"classic, 小说"')
      csv.push('三国演义,罗贯中,,1973,zh,classic')
      const answer = await mutate<ImportReport>('import', owner, { csv: csv.join('\n'), dryRun: false })
      expect(answer.error, 'the series imports').toBeUndefined()
      expect(answer.data?.imported).toBe(62)
    })

    const walk = async (input: Record<string, unknown>) => {
      const seen: string[] = []
      let after: string | undefined
      for (let pages = 0; pages < 20; pages++) {
        const page = await list(owner, { ...input, after, limit: 25 })
        seen.push(...page.items.map((item) => item.title))
        if (!page.nextCursor) break
        after = page.nextCursor
      }
      return seen
    }

    it('pages through every book once, in each sort order, both ways', async () => {
      for (const sort of ['title', 'authors', 'isbn', 'publishedYear', 'language', 'createdAt', 'updatedAt']) {
        for (const direction of ['asc', 'desc']) {
          const titles = await walk({ sort, direction })
          expect(titles, `${sort} ${direction}`).toHaveLength(62)
          expect(new Set(titles).size, `${sort} ${direction} has no repeats`).toBe(62)
        }
      }
      const first = await list(owner, { sort: 'title', direction: 'asc', limit: 25 })
      const second = await list(owner, { sort: 'title', direction: 'asc', limit: 25, after: first.nextCursor })
      const back = await list(owner, { sort: 'title', direction: 'asc', limit: 25, before: second.previousCursor })
      expect(back.items.map((item) => item.id)).toEqual(first.items.map((item) => item.id))
      expect(back.previousCursor, 'the first page has nothing before it').toBeUndefined()
    })

    it('opens any page by its number, with the total, in the same order the cursors walk', async () => {
      const walked = await walk({ sort: 'title', direction: 'asc' })
      const numbered: string[] = []
      for (const page of [1, 2, 3]) {
        const answer = await list(owner, { sort: 'title', direction: 'asc', limit: 25, page })
        expect(answer.total, `page ${page}`).toBe(62)
        numbered.push(...answer.items.map((item) => item.title))
      }
      expect(numbered).toEqual(walked)
      const third = await list(owner, { sort: 'title', direction: 'asc', limit: 25, page: 3 })
      expect(third.items).toHaveLength(12)
      expect(third.nextCursor, 'the last page has nothing after it').toBeUndefined()
      const back = await list(owner, { sort: 'title', direction: 'asc', limit: 25, before: third.previousCursor })
      expect(
        back.items.map((item) => item.title),
        'its cursor leads back to page 2',
      ).toEqual(walked.slice(25, 50))
      const filtered = await list(owner, { q: 'Volume 0', limit: 5, page: 2 })
      expect(filtered, 'the total counts what the filters select').toMatchObject({ total: 10 })
      expect(filtered.items).toHaveLength(5)
      expect((await list(owner, { limit: 25, page: 4 })).items, 'past the end: no rows, the total still').toEqual([])
      const refused = await h.trpc('query', 'books.list', owner.cookie, { page: 0 })
      expect(refused).toMatchObject({ status: 400 })
    })

    it('sorts numbers inside titles by their value, in Chinese too, across pages', async () => {
      const numbered = ['第 988 卷', '第 88 卷', '第 9 卷', 'Vol. 10', 'vol. 9', 'Vol. 100']
      const ids: string[] = []
      for (const title of numbered) ids.push(await create(owner, book(title)))
      const titles = (await walk({ sort: 'title', direction: 'asc' })).filter((title) => numbered.includes(title))
      expect(titles).toEqual(['vol. 9', 'Vol. 10', 'Vol. 100', '第 9 卷', '第 88 卷', '第 988 卷'])
      const descending = (await walk({ sort: 'title', direction: 'desc' })).filter((title) => numbered.includes(title))
      expect(descending).toEqual([...titles].reverse())
      await mutate('delete', owner, { ids })
    })

    it('puts books without a year last, in either direction', async () => {
      await create(owner, book('Undated'))
      for (const direction of ['asc', 'desc']) {
        const titles = await walk({ sort: 'publishedYear', direction })
        expect(titles.at(-1), direction).toBe('Undated')
      }
      const [undated] = await db().select().from(books).where(eq(books.title, 'Undated'))
      await mutate('delete', owner, { ids: [undated?.id] })
    })

    it('stays stable while books are added between pages', async () => {
      const first = await list(owner, { limit: 25 })
      for (let index = 0; index < 5; index++) await create(owner, book(`Arrived meanwhile ${index}`))
      const rest: string[] = []
      let after = first.nextCursor
      while (after) {
        const page = await list(owner, { limit: 25, after })
        rest.push(...page.items.map((item) => item.title))
        after = page.nextCursor
      }
      const all = [...first.items.map((item) => item.title), ...rest]
      expect(all).toHaveLength(62)
      expect(all.some((title) => title.startsWith('Arrived'))).toBe(false)
      const mine = await db().select({ id: books.id }).from(books).where(sql`${books.title} like 'Arrived meanwhile%'`)
      await mutate('delete', owner, { ids: mine.map((row) => row.id) })
    })

    it('searches titles, authors and ISBNs, Chinese included, and filters by tag, language and years', async () => {
      const titles = async (input: Record<string, unknown>) => (await list(owner, input)).items.map((i) => i.title)
      expect(await titles({ q: '红楼' })).toEqual(['红楼梦'])
      expect(await titles({ q: '曹雪芹' })).toEqual(['红楼梦'])
      expect(await titles({ q: '978-7-02-000220-7' })).toEqual(['红楼梦'])
      expect(await titles({ q: '7020002207' })).toEqual(['红楼梦'])
      expect(await titles({ q: 'volume 0' })).toHaveLength(10)
      expect(await titles({ q: '100%' }), 'a % is searched for, not a wildcard').toEqual([])
      expect((await titles({ tag: 'classic', sort: 'title', direction: 'asc' })).sort()).toEqual(['三国演义', '红楼梦'])
      expect(await titles({ tag: '小说' })).toEqual(['红楼梦'])
      expect(await titles({ language: 'zh', yearFrom: 1980 })).toEqual(['红楼梦'])
      expect(await titles({ yearFrom: 1990, yearTo: 1990, limit: 100 })).toHaveLength(6)
      expect((await query('count', owner, { language: 'en' })).data).toBe(60)
      const facets = await query<{ tags: string[]; languages: string[] }>('facets', owner)
      expect(facets.data?.tags).toEqual(expect.arrayContaining(['classic', 'series', '小说']))
      expect(facets.data?.languages).toEqual(['en', 'zh'])
    })

    it('exports the filtered list as CSV that imports back as the same books', async () => {
      const exported = await query<{ csv: string; count: number }>('exportCsv', owner, { language: 'zh' })
      expect(exported.data?.count).toBe(2)
      const csv = exported.data?.csv ?? ''
      expect(csv.startsWith('\uFEFFtitle,authors,isbn,published_year,language,tags,cover_url,description')).toBe(true)
      expect(csv).toContain('红楼梦,曹雪芹,9787020002207,1982,zh,"classic, 小说"')
      const copy = await h.signUp('Cora Copy')
      const imported = await mutate<ImportReport>('import', copy, { csv, dryRun: false })
      expect(imported.data?.imported).toBe(2)
      const copied = await h.trpc<BookPage>('query', 'books.list', copy.cookie, { q: '红楼梦' })
      expect(copied.data?.items[0]).toMatchObject({ authors: ['曹雪芹'], tags: ['classic', '小说'] })
    })

    it('escapes cells that a spreadsheet would run as a formula', async () => {
      await create(owner, book('=HYPERLINK("http://evil.example")'))
      const exported = await query<{ csv: string }>('exportCsv', owner, { q: 'hyperlink' })
      expect(exported.data?.csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`)
    })
  })

  describe('import', () => {
    it('previews a file with problems, names each line and column, and imports nothing', async () => {
      const before = (await stored()).length
      const csv = [
        'Title,Author,ISBN,Year,Language,Tags',
        'Good book,A. Writer,978-0-262-03384-8,2009,en,algorithms',
        ',Nobody,,,,',
        'Bad ISBN,Someone,978-0-262-03384-9,2009,en,',
        'Twice,Someone,9780262033848,2009,en,',
        'Old,Someone,,12,en,',
      ].join('\n')
      const preview = await mutate<ImportReport>('import', olga, { csv, dryRun: true })
      expect(preview.data?.rowCount).toBe(5)
      expect(preview.data?.issues).toEqual([
        { line: 3, column: 'title', message: 'validation_required' },
        { line: 4, column: 'isbn', message: 'validation_isbn_invalid' },
        { line: 5, column: 'isbn', message: 'validation_isbn_duplicate_in_file' },
        { line: 6, column: 'published_year', message: 'validation_year_invalid' },
      ])
      expect(preview.data?.preview.map((row) => row.title)).toEqual(['Good book'])
      expect(preview.data).toMatchObject({ issueCount: 4, issueLineCount: 4 })
      // Problems are counted, and so are the lines they are on ("3 problems in 1 row").
      const crowded = await mutate<ImportReport>('import', olga, {
        csv: 'title,isbn,published_year\n,123,12\nFine,,',
        dryRun: true,
      })
      expect(crowded.data).toMatchObject({ rowCount: 2, issueCount: 3, issueLineCount: 1 })
      const commit = await mutate('import', olga, { csv, dryRun: false })
      expect(commit.error?.appCode).toBe('IMPORT_HAS_ERRORS')
      expect((await stored()).length).toBe(before)
    })

    it('reports a clash with the catalogue, and files without a title column or rows', async () => {
      await create(olga, book('In the catalogue', { isbn: isbnFrom('222222222') }))
      const clash = await mutate<ImportReport>('import', olga, {
        csv: `title,isbn\nNew,${isbnFrom('333333333')}\nClash,${isbnFrom('222222222')}`,
        dryRun: true,
      })
      expect(clash.data?.issues).toEqual([{ line: 3, column: 'isbn', message: 'validation_isbn_taken' }])
      const noTitle = await mutate<ImportReport>('import', olga, { csv: 'name,isbn\nX,', dryRun: true })
      expect(noTitle.data?.issues).toEqual([{ line: 1, column: null, message: 'import_no_title_column' }])
      const empty = await mutate<ImportReport>('import', olga, { csv: 'title\n', dryRun: true })
      expect(empty.data?.issues).toEqual([{ line: 1, column: null, message: 'import_empty' }])
    })

    it('imports 10,000 rows in one go', async () => {
      const importer = await h.signUp('Ian Importer')
      await h.givePlan((await h.activeOrganizationOf(importer)) ?? '', 'pro')
      const rows = ['title,authors,isbn,published_year,language,tags']
      for (let index = 0; index < 10_000; index++) {
        rows.push(`Book ${index},Author ${index % 97},${isbnFrom(String(100_000_000 + index))},2001,en,bulk`)
      }
      const answer = await mutate<ImportReport>('import', importer, { csv: rows.join('\n'), dryRun: false })
      expect(answer.error).toBeUndefined()
      expect(answer.data?.imported).toBe(10_000)
      expect((await h.trpc('query', 'books.count', importer.cookie, {})).data).toBe(10_000)
      const tooMany = await mutate<ImportReport>('import', importer, {
        csv: [...rows, 'One more,,,,,'].join('\n'),
        dryRun: true,
      })
      expect(tooMany.data?.issues[0]?.message).toBe('import_too_many_rows')
    }, 120_000)

    it('resumes a large import interrupted by a restart where it stopped, without writing a row twice', async () => {
      const importer = await h.signUp('Rhea Resume')
      const organizationId = (await h.activeOrganizationOf(importer)) ?? ''
      await h.givePlan(organizationId, 'pro')
      const rows = ['title,authors,isbn']
      for (let index = 0; index < 1_200; index++)
        rows.push(`Resumed ${index},Author,${isbnFrom(String(200_000_000 + index))}`)
      const importId = 'resume-test-import'
      await db()
        .insert(bookImports)
        .values({
          id: importId,
          organizationId,
          createdById: importer.id,
          csv: rows.join('\n'),
          rowCount: 1_200,
        })
      // The server stops after the first chunk of 500.
      await expect(runBookImport(db(), importId, { stopAfterChunks: 1 })).rejects.toBeInstanceOf(ImportInterrupted)
      const progress = await h.trpc<{ id: string; status: string; imported: number; rowCount: number }[]>(
        'query',
        'books.imports',
        importer.cookie,
      )
      expect(progress.data?.[0]).toMatchObject({ id: importId, status: 'running', imported: 500, rowCount: 1_200 })
      expect((await h.trpc('query', 'books.count', importer.cookie, {})).data).toBe(500)
      // The job runs again after the restart (pg-boss retries it once its attempt expired).
      await runBookImport(db(), importId)
      expect((await h.trpc('query', 'books.count', importer.cookie, {})).data).toBe(1_200)
      const titles = await db()
        .select({ title: books.title })
        .from(books)
        .where(eq(books.organizationId, organizationId))
      expect(new Set(titles.map((row) => row.title)).size, 'each row once').toBe(1_200)
      const [done] = await db().select().from(bookImports).where(eq(bookImports.id, importId))
      expect(done).toMatchObject({ status: 'done', imported: 1_200, csv: '' })
      await runBookImport(db(), importId)
      expect((await h.trpc('query', 'books.count', importer.cookie, {})).data, 'a finished import does nothing').toBe(
        1_200,
      )
    })

    it('stops a large import for good when a book took one of its ISBNs meanwhile, keeping what was written', async () => {
      const importer = await h.signUp('Cleo Clash')
      const organizationId = (await h.activeOrganizationOf(importer)) ?? ''
      await h.givePlan(organizationId, 'pro')
      const rows = ['title,isbn']
      for (let index = 0; index < 1_100; index++)
        rows.push(`Clashing ${index},${isbnFrom(String(300_000_000 + index))}`)
      await db()
        .insert(bookImports)
        .values({
          id: 'clash-test-import',
          organizationId,
          createdById: importer.id,
          csv: rows.join('\n'),
          rowCount: 1_100,
        })
      // Someone adds the 700th row's book by hand while the import waits in the queue.
      await create(importer, book('Added by hand', { isbn: isbnFrom(String(300_000_000 + 699)) }))
      await runBookImport(db(), 'clash-test-import')
      const [stopped] = await db().select().from(bookImports).where(eq(bookImports.id, 'clash-test-import'))
      expect(stopped).toMatchObject({ status: 'failed', error: 'validation_isbn_taken', imported: 500 })
      expect((await h.trpc('query', 'books.count', importer.cookie, {})).data).toBe(501)
    })
  })

  describe('the bin', () => {
    it('hides deleted books, restores them, and purges them after 30 days', async () => {
      const id = await create(olga, book('Binned'))
      await mutate('delete', olga, { ids: [id] })
      expect((await list(olga, { q: 'binned' })).items).toEqual([])
      expect((await query('get', olga, { id })).error?.appCode).toBe('BOOK_NOT_FOUND')
      await mutate('restore', olga, { ids: [id] })
      expect((await list(olga, { q: 'binned' })).items).toHaveLength(1)

      await mutate('delete', olga, { ids: [id] })
      expect(await purgeDeletedBooks(db(), new Date(Date.now() + 29 * 86_400_000))).toBe(0)
      expect(await purgeDeletedBooks(db(), new Date(Date.now() + 31 * 86_400_000))).toBeGreaterThanOrEqual(1)
      expect(await db().select().from(books).where(eq(books.id, id))).toEqual([])
    })

    it('tags several books at once, keeping at most ten tags on each', async () => {
      const a = await create(olga, book('Tag A', { tags: ['one'] }))
      const b = await create(olga, book('Tag B', { tags: ['ONE', 'two'] }))
      const answer: TrpcAnswer = await mutate('addTags', olga, { ids: [a, b], tags: 'one, three' })
      expect(answer.error).toBeUndefined()
      const rows = await db().select().from(books).where(sql`${books.id} in (${a}, ${b})`)
      expect(Object.fromEntries(rows.map((row) => [row.title, row.tags]))).toEqual({
        'Tag A': ['one', 'three'],
        'Tag B': ['ONE', 'two', 'three'],
      })
      const full = await create(olga, book('Full', { tags: 'a,b,c,d,e,f,g,h,i,j'.split(',') }))
      const over = await mutate('addTags', olga, { ids: [a, full], tags: ['k'] })
      expect(over.error?.fieldErrors?.tags).toEqual(['validation_book_tags_too_many'])
      const [unchanged] = await db().select().from(books).where(eq(books.id, a))
      expect(unchanged?.tags, 'nothing changed when one book would pass the limit').toEqual(['one', 'three'])
    })
  })
})
