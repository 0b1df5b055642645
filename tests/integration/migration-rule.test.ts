// The migration rule (scripts/migration-rule.ts; docs: Upgrading). Several app servers upgrade one at a time, so while
// the new release migrates, the previous one still runs against the new schema: each migration only expands it, and
// a step that contracts it (a drop, a rename, a new type, a new NOT NULL) ships a release after the code stopped using
// what it changes, with a `-- contract: <what> — unused since <release>` line at the top of its file.
// Two checks: every migration's SQL, and, on a migrated database, every earlier snapshot's tables and columns read as
// that release read them, with the columns added since able to be left out of its inserts.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ColumnShape,
  canonicalType,
  checkMigration,
  contractSteps,
  previousReleaseProblems,
  type SchemaShape,
  type Snapshot,
  snapshotShape,
  withMarkers,
} from '../../scripts/migration-rule'
import { coreEngines, createFreshDatabase, type FreshDatabase } from './test-databases'

const journal = JSON.parse(readFileSync(path.resolve('drizzle/meta/_journal.json'), 'utf8')) as {
  entries: { idx: number; tag: string }[]
}
const migrations = journal.entries.map((entry) => ({
  tag: entry.tag,
  sql: readFileSync(path.resolve('drizzle', `${entry.tag}.sql`), 'utf8'),
  snapshot: JSON.parse(
    readFileSync(path.resolve('drizzle/meta', `${String(entry.idx).padStart(4, '0')}_snapshot.json`), 'utf8'),
  ) as Snapshot,
}))

/** Whether a column is NOT NULL in a schema, undefined when the schema does not have it. */
const notNullIn = (shape: SchemaShape | undefined) => (table: string, column: string) =>
  shape?.get(table)?.get(column)?.notNull

/** The contract steps the migrations after the index-th one declare (their markers' `<what>`s). */
function contractedAfter(index: number): string[] {
  return migrations.slice(index + 1).flatMap((migration) => checkMigration(migration.sql).markers.map((m) => m.what))
}

describe('the migrations in drizzle/', () => {
  it('only expand the schema, or say which earlier release stopped using what they contract', () => {
    const problems = migrations.flatMap((migration, index) => {
      const previous = index > 0 ? snapshotShape(migrations[index - 1]?.snapshot ?? { tables: {} }) : undefined
      const verdict = checkMigration(migration.sql, { notNull: notNullIn(previous) })
      return verdict.problems.map((problem) => `drizzle/${migration.tag}.sql: ${problem}`)
    })
    expect(problems, problems.join('\n\n')).toEqual([])
    expect(migrations.length).toBeGreaterThan(0)
  })
})

describe('the rule', () => {
  const contracts = (text: string, notNull?: boolean) =>
    contractSteps(text, { notNull: () => notNull }).map((s) => s.what)

  it('lets a migration expand the schema', () => {
    const expanding = [
      'CREATE TABLE "shelves" ("id" text PRIMARY KEY NOT NULL, "name" text NOT NULL);',
      // A table this migration makes is new to the previous release, whatever happens to it.
      'CREATE TABLE "shelves" ("id" text);--> statement-breakpoint\nALTER TABLE "shelves" ADD COLUMN "position" integer NOT NULL;',
      'ALTER TABLE "books" ADD COLUMN "subtitle" text;',
      'ALTER TABLE "books" ADD COLUMN "pages" integer DEFAULT 0 NOT NULL;',
      'ALTER TABLE "books" ADD COLUMN "number" serial NOT NULL;',
      'ALTER TABLE "books" ADD COLUMN "key" text GENERATED ALWAYS AS (lower("title")) STORED NOT NULL;',
      'CREATE INDEX "books_title_idx" ON "books" USING btree ("title");',
      'DROP INDEX "books_title_idx";',
      'ALTER TABLE "books" DROP CONSTRAINT "books_status";',
      'ALTER TABLE "books" ADD CONSTRAINT "books_status" CHECK ("books"."status" in (\'draft\', \'out\'));',
      'ALTER TABLE "books" ALTER COLUMN "status" SET DEFAULT \'draft\';',
      'ALTER TABLE "books" ALTER COLUMN "status" DROP NOT NULL;',
      'ALTER TABLE "books" ALTER COLUMN "note" DROP DEFAULT;', // with a nullable column
      'UPDATE "books" SET "status" = \'out\' WHERE "status" = \'gone\';',
      '-- DROP TABLE "books"; in a comment\nINSERT INTO "notes" ("text") VALUES (\'DROP TABLE "books";\');',
      'CREATE OR REPLACE FUNCTION f() RETURNS void LANGUAGE sql AS $$ DROP TABLE "books" $$;',
    ]
    for (const text of expanding) expect(contracts(text, false), text).toEqual([])
  })

  it('names each statement that contracts it', () => {
    const contracting: [string, string[]][] = [
      ['DROP TABLE "books" CASCADE;', ['drop table books']],
      ['DROP TABLE IF EXISTS "public"."books", "shelves";', ['drop table books', 'drop table shelves']],
      ['ALTER TABLE "books" DROP COLUMN "title";', ['drop column books.title']],
      ['ALTER TABLE books DROP title, ADD COLUMN name text;', ['drop column books.title']],
      ['ALTER TABLE "books" RENAME TO "volumes";', ['rename table books']],
      ['ALTER TABLE "books" RENAME COLUMN "title" TO "name";', ['rename column books.title']],
      ['ALTER TABLE "books" ALTER COLUMN "pages" SET DATA TYPE bigint;', ['set type books.pages']],
      ['ALTER TABLE "books" ALTER "pages" TYPE text USING "pages"::text;', ['set type books.pages']],
      ['ALTER TABLE "books" ALTER COLUMN "subtitle" SET NOT NULL;', ['set not null books.subtitle']],
      ['ALTER TABLE "books" ALTER COLUMN "status" DROP DEFAULT;', ['drop default books.status']],
      ['ALTER TABLE "books" ADD COLUMN "isbn" text NOT NULL;', ['add not null column books.isbn']],
      ["ALTER TYPE \"status\" RENAME VALUE 'out' TO 'lent';", ['rename value status.out']],
      ['DROP FUNCTION natural_sort_key(text);', ['drop function natural_sort_key']],
    ]
    for (const [text, expected] of contracting) expect(contracts(text, true), text).toEqual(expected)
    // Not knowing whether the column is NOT NULL, taking its default off counts.
    expect(contractSteps('ALTER TABLE "books" ALTER COLUMN "status" DROP DEFAULT;').map((s) => s.what)).toEqual([
      'drop default books.status',
    ])
  })

  it('refuses a contract step without its marker, and takes it with a well-formed one', () => {
    const drop = 'ALTER TABLE "books" DROP COLUMN "title";'
    const refused = checkMigration(drop)
    expect(refused.problems).toHaveLength(1)
    expect(refused.problems[0]).toContain('-- contract: drop column books.title — unused since <release>')
    const today = '2026-12-08'
    for (const marker of [
      '-- contract: drop column books.title — unused since v2026.11.29',
      '-- contract: drop column "books"."title" -- unused since 1.4.0, when the list showed names',
      '-- contract: drop column books.title — unused since 2026-11-29 (title moved to editions)',
    ]) {
      expect(checkMigration(`${marker}\n${drop}`, { today }).problems, marker).toEqual([])
    }
    const wrong: [string, string][] = [
      ['-- contract: drop column books.title', 'is not a contract marker'],
      ['-- contract: drop column books.title — unused since soon', 'is not a release'],
      ['-- contract: drop column books.title — unused since <release>', 'is not a release'],
      ['-- contract: drop column books.title — unused since 2026-02-30', 'is not a date'],
      ['-- contract: drop column books.title — unused since 2027-01-01', 'is after today'],
      ['-- contract: drop column books.name — unused since v1.0.0', 'which no statement of this migration does'],
    ]
    for (const [marker, problem] of wrong) {
      const verdict = checkMigration(`${marker}\n${drop}`, { today })
      expect(verdict.problems.join('\n'), marker).toContain(problem)
    }
    // The marker says so before the SQL, where a reader of the file starts.
    const late = checkMigration(`${drop}\n-- contract: drop column books.title — unused since v1.0.0`, { today })
    expect(late.problems.join('\n')).toContain('belongs in the comment lines at the top of the file')
    // What `npm run hatch -- remove` writes passes.
    const removal = withMarkers(
      'DROP TABLE "books" CASCADE;--> statement-breakpoint\nDROP TABLE "shelves" CASCADE;',
      today,
    )
    expect(removal.split('\n').slice(0, 2)).toEqual([
      `-- contract: drop table books — unused since ${today}`,
      `-- contract: drop table shelves — unused since ${today}`,
    ])
    expect(checkMigration(removal, { today }).problems).toEqual([])
  })

  it("refuses a new schema the previous release's reads and writes would fail on", () => {
    const older = {
      tables: {
        'public.books': {
          name: 'books',
          schema: '',
          columns: {
            id: { name: 'id', type: 'serial', primaryKey: true, notNull: true },
            title: { name: 'title', type: 'text', notNull: true },
            subtitle: { name: 'subtitle', type: 'text', notNull: false },
            status: { name: 'status', type: 'text', notNull: true, default: "'draft'" },
            added_at: { name: 'added_at', type: 'timestamp', notNull: false },
          },
        },
      },
    }
    const oldShape = snapshotShape(older)
    const changed = (edit: (columns: Map<string, ColumnShape>) => void): SchemaShape => {
      const shape: SchemaShape = new Map([...oldShape].map(([table, columns]) => [table, new Map(columns)]))
      const books = shape.get('books')
      if (books) edit(books)
      return shape
    }
    expect(
      previousReleaseProblems(
        oldShape,
        changed(() => undefined),
      ),
    ).toEqual([])
    expect(
      previousReleaseProblems(
        oldShape,
        changed((books) => books.set('isbn', { type: 'text', notNull: false, filled: false })),
      ),
    ).toEqual([])
    const cases: [string, SchemaShape, string][] = [
      ['a dropped column', changed((books) => books.delete('title')), 'column books.title is gone'],
      ['a dropped table', new Map(), 'table books is gone'],
      [
        'a new type',
        changed((books) => books.set('title', { type: 'character varying(80)', notNull: true, filled: false })),
        'column books.title is character varying(80), was text',
      ],
      [
        'a new NOT NULL',
        changed((books) => books.set('subtitle', { type: 'text', notNull: true, filled: false })),
        'column books.subtitle became NOT NULL',
      ],
      [
        'a lost default',
        changed((books) => books.set('status', { type: 'text', notNull: true, filled: false })),
        'column books.status lost its default',
      ],
      [
        'a new NOT NULL column without a default',
        changed((books) => books.set('isbn', { type: 'text', notNull: true, filled: false })),
        'column books.isbn is new, NOT NULL and without a default',
      ],
    ]
    for (const [change, newer, problem] of cases) {
      expect(previousReleaseProblems(oldShape, newer).join('\n'), change).toContain(problem)
    }
    // A contract step its marker declares is the exception.
    expect(
      previousReleaseProblems(
        oldShape,
        changed((books) => books.delete('title')),
        ['drop column books.title'],
      ),
    ).toEqual([])
    expect(canonicalType('timestamp')).toBe('timestamp without time zone')
    expect(canonicalType('varchar(20)')).toBe('character varying(20)')
    expect(canonicalType('bigserial')).toBe('bigint')
  })
})

/** The tables and columns of the database's public schema, as PostgreSQL has them. */
async function databaseShape(database: FreshDatabase): Promise<SchemaShape> {
  const result = (await database.connection.db.execute(sql`
    select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type",
      a.attnotnull as "notNull", (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as "filled"
    from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
  `)) as unknown as { rows: { table: string; column: string; type: string; notNull: boolean; filled: boolean }[] }
  const shape: SchemaShape = new Map()
  for (const row of result.rows) {
    const columns = shape.get(row.table) ?? new Map<string, ColumnShape>()
    columns.set(row.column, { type: canonicalType(row.type), notNull: row.notNull, filled: row.filled })
    shape.set(row.table, columns)
  }
  return shape
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** `select <columns> from <table> limit 0` for each table of `older` the database should still serve as it was. */
function previousReleaseReads(older: SchemaShape, contracted: string[]): string[] {
  const excused = new Set(contracted)
  return [...older].flatMap(([table, columns]) => {
    if (excused.has(`drop table ${table}`) || excused.has(`rename table ${table}`)) return []
    const read = [...columns.keys()].filter(
      (column) => !excused.has(`drop column ${table}.${column}`) && !excused.has(`rename column ${table}.${column}`),
    )
    return read.length > 0 ? [`select ${read.map(quote).join(', ')} from ${quote(table)} limit 0`] : []
  })
}

describe.each(coreEngines)('the previous release against the migrated %s database', (engine) => {
  let database: FreshDatabase
  beforeAll(async () => {
    database = await createFreshDatabase(engine)
  })
  afterAll(() => database.dispose())

  it('finds every table and column each earlier snapshot knew, with its type, and can leave out every new column', async () => {
    const current = await databaseShape(database)
    // Each problem once, with the snapshots that meet it (a column dropped in 0032 is missed by 0002's to 0031's).
    const problems = new Map<string, string[]>()
    const reads = new Map<string, string>()
    migrations.forEach((migration, index) => {
      const older = snapshotShape(migration.snapshot)
      const contracted = contractedAfter(index)
      for (const problem of previousReleaseProblems(older, current, contracted)) {
        problems.set(problem, [...(problems.get(problem) ?? []), migration.tag])
      }
      for (const read of previousReleaseReads(older, contracted)) if (!reads.has(read)) reads.set(read, migration.tag)
    })
    const report = [...problems].map(
      ([problem, tags]) => `${problem} (the schema of ${tags.length > 1 ? `${tags[0]} to ${tags.at(-1)}` : tags[0]})`,
    )
    expect(report, report.join('\n')).toEqual([])
    // Literally as the previous release reads: every column it knew, from every table it knew.
    const failed: string[] = []
    for (const [read, tag] of reads) {
      await database.connection.db.execute(sql.raw(read)).catch((error: Error) => {
        failed.push(`${tag}: ${read}: ${error.message}`)
      })
    }
    expect(failed, failed.join('\n')).toEqual([])
    expect(reads.size).toBeGreaterThan(0)
  })

  it('fails on a migration that drops or renames a column, or adds one an old insert cannot leave out', async () => {
    const db = database.connection.db
    await db.execute(
      sql.raw(
        'create table migration_rule_books (id serial primary key, title text not null, subtitle text, shelf text)',
      ),
    )
    const older = await databaseShape(database)
    const reads = previousReleaseReads(
      new Map([['migration_rule_books', older.get('migration_rule_books') ?? new Map()]]),
      [],
    )
    const migration = [
      'ALTER TABLE "migration_rule_books" DROP COLUMN "title";',
      'ALTER TABLE "migration_rule_books" RENAME COLUMN "subtitle" TO "tagline";',
      'ALTER TABLE "migration_rule_books" ADD COLUMN "isbn" text NOT NULL;',
    ].join('--> statement-breakpoint\n')
    expect(checkMigration(migration).steps.map((step) => step.what)).toEqual([
      'drop column migration_rule_books.title',
      'rename column migration_rule_books.subtitle',
      'add not null column migration_rule_books.isbn',
    ])
    for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement))
    const problems = previousReleaseProblems(older, await databaseShape(database))
    expect(problems).toEqual([
      'column migration_rule_books.title is gone: the previous release reads and writes it',
      'column migration_rule_books.subtitle is gone: the previous release reads and writes it',
      "column migration_rule_books.isbn is new, NOT NULL and without a default: the previous release's inserts leave it out",
    ])
    expect(reads).toHaveLength(1)
    await expect(db.execute(sql.raw(reads[0] ?? ''))).rejects.toThrow(/title/)
    await db.execute(sql.raw('drop table migration_rule_books'))
  })
})
