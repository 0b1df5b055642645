import { listPageNumber } from '#/lib/list-schemas'
import { recordId, storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { bookLimits, latestPublishedYear } from './book-rules'
import { compactIsbn, isValidIsbn } from './isbn'
import { bookLanguages, bookSortColumns } from './search'

/** Splits "A, B、C" or a list into trimmed, non-empty, de-duplicated entries (the first spelling wins). */
export function splitList(value: unknown): unknown {
  const entries = typeof value === 'string' ? value.split(/[,，、\n]/) : value
  if (!Array.isArray(entries)) return entries
  const seen = new Set<string>()
  const result: unknown[] = []
  for (const entry of entries) {
    if (typeof entry !== 'string') {
      result.push(entry)
      continue
    }
    const trimmed = entry.trim()
    if (!trimmed || seen.has(trimmed.toLowerCase())) continue
    seen.add(trimmed.toLowerCase())
    result.push(trimmed)
  }
  return result
}

const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value)

const isbnField = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(40, 'validation_isbn_invalid')
    .transform(compactIsbn)
    .refine(isValidIsbn, 'validation_isbn_invalid')
    .nullable(),
)

const yearField = z.preprocess(
  (value) => {
    const empty = emptyToNull(value)
    return typeof empty === 'string' && /^\s*-?\d+\s*$/.test(empty) ? Number(empty) : empty
  },
  z
    .number('validation_year_invalid')
    .int('validation_year_invalid')
    .min(bookLimits.yearMin, 'validation_year_invalid')
    .refine((year) => year <= latestPublishedYear(), 'validation_year_invalid')
    .nullable(),
)

const coverUrlField = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(bookLimits.coverUrlMax, 'validation_cover_url_invalid')
    .refine((value) => {
      try {
        const url = new URL(value)
        return url.protocol === 'https:' || url.protocol === 'http:'
      } catch {
        return false
      }
    }, 'validation_cover_url_invalid')
    .nullable(),
)

/**
 * A book as the form, the CSV import and the procedures take it. Lists may come as text ("A, B"), so a form field
 * and a CSV cell parse the same way; the output is always arrays, numbers and nulls.
 */
export const bookInput = z.object({
  title: storableString('validation_required')
    .trim()
    .min(1, 'validation_required')
    .max(bookLimits.titleMax, 'validation_book_title_too_long'),
  authors: z.preprocess(
    splitList,
    z
      .array(
        storableString().max(bookLimits.authorMax, 'validation_book_author_too_long'),
        'validation_book_authors_invalid',
      )
      .max(bookLimits.authorsMax, 'validation_book_authors_too_many'),
  ),
  isbn: isbnField,
  publishedYear: yearField,
  language: z.preprocess(
    (value) => (typeof value === 'string' ? emptyToNull(value.trim().toLowerCase()) : value),
    z.enum(bookLanguages, 'validation_book_language_invalid').nullable(),
  ),
  tags: z.preprocess(
    splitList,
    z
      .array(storableString().max(bookLimits.tagMax, 'validation_book_tag_too_long'), 'validation_book_tags_invalid')
      .max(bookLimits.tagsMax, 'validation_book_tags_too_many'),
  ),
  coverUrl: coverUrlField,
  description: storableString()
    .max(bookLimits.descriptionMax, 'validation_book_description_too_long')
    .transform((value) => value.trim()),
})
export type BookInput = z.output<typeof bookInput>

/** What the book form edits: every field as text, exactly what its inputs hold. */
export interface BookFormValues {
  title: string
  authors: string
  isbn: string
  publishedYear: string
  language: string
  tags: string
  coverUrl: string
  description: string
}

/** A rule that reads loose input (text or a list), applied to a form input's text. */
const fromText = <Rule extends z.ZodType>(rule: Rule) =>
  z
    .string()
    .transform((text): unknown => text)
    .pipe(rule)

/** The same rules for the form, whose inputs all hold text. */
export const bookFormSchema = z.object({
  title: bookInput.shape.title,
  authors: fromText(bookInput.shape.authors),
  isbn: fromText(bookInput.shape.isbn),
  publishedYear: fromText(bookInput.shape.publishedYear),
  language: fromText(bookInput.shape.language),
  tags: fromText(bookInput.shape.tags),
  coverUrl: fromText(bookInput.shape.coverUrl),
  description: bookInput.shape.description,
}) satisfies z.ZodType<BookInput, BookFormValues>

export const bookIdInput = z.object({ id: recordId() })
export const updateBookInput = z.object({ id: recordId(), book: bookInput })
export const bookIdsInput = z.object({ ids: z.array(recordId()).min(1).max(bookLimits.bulkMax) })
export const tagBooksInput = bookIdsInput.extend({
  tags: z.preprocess(
    splitList,
    z
      .array(storableString().max(bookLimits.tagMax, 'validation_book_tag_too_long'))
      .min(1, 'validation_required')
      .max(bookLimits.tagsMax, 'validation_book_tags_too_many'),
  ),
})

/** The list's filters and order: the list procedure and the CSV export both take them. */
export const bookFilters = z.object({
  q: storableString().trim().max(200).optional(),
  tag: storableString().trim().max(bookLimits.tagMax).optional(),
  language: z.enum(bookLanguages).optional(),
  yearFrom: z.number().int().min(0).max(9999).optional(),
  yearTo: z.number().int().min(0).max(9999).optional(),
  sort: z.enum(bookSortColumns).default('createdAt'),
  direction: z.enum(['asc', 'desc']).default('desc'),
})
export type BookFilters = z.output<typeof bookFilters>

export const bookListInput = bookFilters.extend({
  /** An opaque position from the previous answer: the page after it, or before it. */
  after: z.string().max(1000).optional(),
  before: z.string().max(1000).optional(),
  page: listPageNumber.optional(),
  limit: z.number().int().min(1).max(bookLimits.pageSizeMax).default(25),
})

/** The whole CSV file as text; the server parses it (papaparse) so the preview and the import check the same way. */
export const importBooksInput = z.object({
  csv: z.string().max(bookLimits.importBytesMax, 'validation_import_too_large'),
  /** Only check and preview; write nothing. */
  dryRun: z.boolean(),
})

/** A book as its form sends it with only the title filled in, unless `extra` says otherwise (the apps' tests use it). */
export const bookWithTitle = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  authors: [],
  isbn: null,
  publishedYear: null,
  language: null,
  tags: [],
  coverUrl: null,
  description: '',
  ...extra,
})
