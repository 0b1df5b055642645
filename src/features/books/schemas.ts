import { emptyRecordOf, formSchemaOf, inputSchemaOf, splitList } from '#/lib/entity'
import { listPageNumber } from '#/lib/list-schemas'
import { recordId, storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { type BookFormValues, type BookInput, bookEntity } from './book-entity'
import { bookLanguages } from './book-languages'
import { bookLimits } from './book-rules'
import { bookSortColumns } from './search'

export type { BookFormValues, BookInput }

/**
 * A book as the form, the CSV import and the procedures take it (its definition, book-entity.ts). Lists may come as
 * text ("A, B"), so a form field and a CSV cell parse the same way; the output is always arrays, numbers and nulls.
 */
export const bookInput = inputSchemaOf(bookEntity)

/** The same rules for the form, whose inputs all hold text. */
export const bookFormSchema = formSchemaOf(bookEntity)

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
export const bookWithTitle = (title: string, extra: Record<string, unknown> = {}): BookInput => ({
  ...emptyRecordOf(bookEntity, { title }),
  ...extra,
})
