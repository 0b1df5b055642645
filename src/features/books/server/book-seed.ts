import { randomBytes } from 'node:crypto'
import { asc, eq, sql } from 'drizzle-orm'
import { emptyRecordOf } from '#/lib/entity'
import type { Database } from '#/server/db/client'
import { books, members, organizations } from '#/server/db/schema'
import { bookEntity } from '../book-entity'
import { toIsbn13 } from '../isbn'
import type { BookInput } from '../schemas'
import { bookColumns } from './book-queries'

const adjectives = ['Silent', 'Hidden', 'Golden', 'Northern', 'Last', 'Little', 'Broken', 'Distant', 'Quiet', 'Red']
const nouns = ['River', 'Garden', 'Machine', 'Harbour', 'Letter', 'Forest', 'Engine', 'Island', 'Lantern', 'Atlas']
const chineseTitles = ['山河', '长夜', '春雨', '远方', '星河', '故园', '海潮', '秋灯', '雪国', '归途']
const authors = [
  'Ada Byron',
  'Alan Turing',
  'Grace Hopper',
  '林徽因',
  '钱钟书',
  'Toni Morrison',
  '张爱玲',
  'Italo Calvino',
]
const tags = ['fiction', 'history', 'science', 'poetry', 'classic', '小说', '散文', 'travel']
const languages = ['en', 'zh', 'fr', 'de', 'ja'] as const

/** A made-up but valid book; `index` keeps titles and ISBNs distinct. */
export function sampleBook(index: number): BookInput {
  const chinese = index % 4 === 0
  const title = chinese
    ? `${chineseTitles[index % 10]}${chineseTitles[Math.floor(index / 10) % 10]}（第 ${index} 卷）`
    : `The ${adjectives[index % 10]} ${nouns[Math.floor(index / 10) % 10]} ${index}`
  // Fields the definition gains later start empty.
  return emptyRecordOf(bookEntity, {
    title,
    authors: [authors[index % authors.length] ?? 'Anonymous'],
    isbn: toIsbn13(`${String(500_000_000 + index).padStart(9, '0')}0`),
    publishedYear: 1900 + (index % 125),
    language: chinese ? 'zh' : (languages[index % languages.length] ?? 'en'),
    tags: [tags[index % tags.length] ?? 'fiction', tags[(index * 7) % tags.length] ?? 'classic'].filter(
      (tag, position, all) => all.indexOf(tag) === position,
    ),
    coverUrl: null,
    description: `Book number ${index}, made up by \`npm run db:seed\`.`,
  })
}

/**
 * Fills an organization (by slug, or else the oldest one) with `count` sample books, for demos and benchmarks.
 * Returns where they went; ISBNs already there are skipped, so running it twice adds nothing twice.
 */
export async function seedBooks(db: Database, count: number, organizationSlug?: string) {
  const [organization] = organizationSlug
    ? await db.select().from(organizations).where(eq(organizations.slug, organizationSlug))
    : await db.select().from(organizations).orderBy(asc(organizations.createdAt)).limit(1)
  if (!organization) return null
  const [owner] = await db
    .select({ userId: members.userId })
    .from(members)
    .where(eq(members.organizationId, organization.id))
    .orderBy(asc(members.createdAt))
    .limit(1)
  const start = Date.now()
  let inserted = 0
  for (let offset = 0; offset < count; offset += 1000) {
    const rows = []
    for (let index = offset; index < Math.min(count, offset + 1000); index++) {
      const createdAt = new Date(start - (count - index) * 1000)
      rows.push({
        id: `${createdAt.getTime().toString(16).padStart(12, '0')}${randomBytes(10).toString('hex')}`,
        organizationId: organization.id,
        createdById: owner?.userId ?? null,
        createdAt,
        updatedAt: createdAt,
        ...bookColumns(sampleBook(index)),
      })
    }
    const result = await db.insert(books).values(rows).onConflictDoNothing().returning({ id: books.id })
    inserted += result.length
  }
  // Fresh statistics, so the planner uses the list's indexes (PGlite has no autovacuum).
  await db.execute(sql`analyze books`)
  return { organization: organization.slug, inserted }
}
