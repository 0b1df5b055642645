// The docs' recipe "Add a field" (content/docs/(guide)/add-a-field.mdx), followed in a copy of the project: a
// `publisher` field added with only the book's definition, its table column, and its words in English and Chinese
// (and, since the list orders by it, its key in the list's address), plus the migration drizzle-kit writes. The copy then passes the type check, and every surface test
// (book-entity-surfaces.test.ts: form, list, details, CSV both ways, webhook payload, MCP and assistant tools, seed)
// passes with the field in it: nothing else needed changing by hand.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { typeCheckCommand } from '../../../../scripts/project'
import { copyOfProject, removeCopy } from '../../../../scripts/project-copy'

const project = path.resolve('.')
let copy = ''

afterAll(() => {
  if (copy) removeCopy(copy)
})

function edit(file: string, change: (text: string) => string) {
  const at = path.join(copy, file)
  const before = readFileSync(at, 'utf8')
  const after = change(before)
  expect(after, `${file} changed`).not.toBe(before)
  writeFileSync(at, after)
}

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, args, {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  })
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` }
}

function addWords(file: string, words: Record<string, string>) {
  edit(file, (text) => {
    const catalogue = JSON.parse(text) as Record<string, unknown>
    return `${JSON.stringify({ ...catalogue, ...words }, null, 2)}\n`
  })
}

it('adds a field to books with four files edited by hand (five when the list orders by it), and it reaches every surface', {
  timeout: 300_000,
}, () => {
  copy = copyOfProject(project, { prefix: 'hatch-field-' })

  // 1. The definition: the field, after the published year.
  edit('src/features/books/book-entity.ts', (text) =>
    text
      .replace('emptyToNull, splitList }', 'emptyToNull, optionalText, splitList }')
      .replace(
        '  language: {',
        [
          '  publisher: {',
          "    kind: 'text',",
          "    rule: optionalText(120, 'validation_book_publisher_too_long'),",
          "    messages: { validation_book_publisher_too_long: () => m.validation_book_publisher_too_long({ max: '120' }) },",
          '    label: m.book_field_publisher,',
          '    column: { sortable: true },',
          '    searchable: true,',
          '  },',
          '  language: {',
        ].join('\n'),
      ),
  )
  // 2. Its column in the table.
  edit('src/features/books/server/schema.ts', (text) =>
    text.replace(
      "publishedYear: integer('published_year'),",
      "publishedYear: integer('published_year'),\n    publisher: text('publisher'),",
    ),
  )
  // A field the list orders by also goes into the list's address (src/features/books/search.ts).
  edit('src/features/books/search.ts', (text) =>
    text.replace("  'publishedYear',\n  'language',", "  'publishedYear',\n  'publisher',\n  'language',"),
  )
  // 3 and 4. Its words.
  addWords('src/features/books/messages/en.json', {
    book_field_publisher: 'Publisher',
    validation_book_publisher_too_long: 'Use at most {max} characters for the publisher',
  })
  addWords('src/features/books/messages/zh.json', {
    book_field_publisher: '出版社',
    validation_book_publisher_too_long: '出版社最多 {max} 个字符',
  })

  // The migration, as `npm run db:generate` writes it.
  const migrationsBefore = readdirSync(path.join(copy, 'drizzle'))
  const generated = run(['node_modules/drizzle-kit/bin.cjs', 'generate', '--name', 'book_publisher'])
  expect(generated.status, generated.output).toBe(0)
  const written = readdirSync(path.join(copy, 'drizzle')).filter((file) => !migrationsBefore.includes(file))
  expect(written).toEqual([expect.stringMatching(/^\d{4}_book_publisher\.sql$/)])
  expect(readFileSync(path.join(copy, 'drizzle', written[0] ?? ''), 'utf8')).toContain(
    'ALTER TABLE "books" ADD COLUMN "publisher" text;',
  )

  const compiled = run([
    '--input-type=module',
    '-e',
    "const { compileMessages } = await import('./scripts/i18n.ts'); await compileMessages(); process.exit(0)",
  ])
  expect(compiled.status, compiled.output).toBe(0)
  const typeCheck = run([...typeCheckCommand])
  expect(typeCheck.status, typeCheck.output).toBe(0)

  const surfaces = run([
    'node_modules/vitest/vitest.mjs',
    'run',
    'src/features/books/tests/book-entity-surfaces.test.ts',
    '--reporter=verbose',
  ])
  expect(surfaces.status, surfaces.output).toBe(0)
  expect(surfaces.output).not.toMatch(/skipped|todo/)
  // The surface test read the copy's definition, publisher included (its name lists the fields it checked).
  expect(surfaces.output).toMatch(/every field of the book’s definition \([^)]*publisher/)
})
