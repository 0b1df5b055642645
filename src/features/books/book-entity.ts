import { defineEntity, type EntityTexts, type EntityValues, emptyToNull, splitList } from '#/lib/entity'
import { currentIntlLocale } from '#/lib/i18n'
import { storableString } from '#/lib/stored-text'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import { bookLanguages } from './book-languages'
import { bookLimits, latestPublishedYear } from './book-rules'
import { compactIsbn, isValidIsbn } from './isbn'
import './book-messages'

/**
 * A book, defined once (src/lib/entity.ts): the form, the list's columns, the details, CSV, webhooks, the MCP and
 * assistant tools and the stored columns all follow it. To add a field: add it here, add its column to
 * server/schema.ts with a migration, and its label to messages/en.json and messages/zh.json (docs: "Add a field").
 */
export const bookEntity = defineEntity({
  title: {
    kind: 'text',
    required: true,
    rule: storableString('validation_required')
      .trim()
      .min(1, 'validation_required')
      .max(bookLimits.titleMax, 'validation_book_title_too_long'),
    label: m.book_field_title,
    columnLabel: m.books_col_title,
    column: { sortable: true, hideable: false },
    tool: { description: 'The title' },
    searchable: true,
    details: false,
  },
  authors: {
    kind: 'list',
    rule: z.preprocess(
      splitList,
      z
        .array(
          storableString().max(bookLimits.authorMax, 'validation_book_author_too_long'),
          'validation_book_authors_invalid',
        )
        .max(bookLimits.authorsMax, 'validation_book_authors_too_many'),
    ),
    label: m.book_field_authors,
    columnLabel: m.books_col_authors,
    hint: m.book_field_authors_hint,
    column: { sortable: true },
    csv: { aliases: ['author'] },
    searchable: true,
    details: false,
  },
  isbn: {
    kind: 'text',
    rule: z.preprocess(
      emptyToNull,
      z
        .string()
        .trim()
        .max(40, 'validation_isbn_invalid')
        .transform(compactIsbn)
        .refine(isValidIsbn, 'validation_isbn_invalid')
        .nullable(),
    ),
    label: m.book_field_isbn,
    columnLabel: m.books_col_isbn,
    hint: m.book_field_isbn_hint,
    column: { sortable: true },
    tool: { description: 'ISBN-10 or ISBN-13' },
    short: true,
    searchable: true,
  },
  publishedYear: {
    kind: 'integer',
    rule: z.preprocess(
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
    ),
    label: m.book_field_year,
    columnLabel: m.books_col_year,
    column: { sortable: true },
    csv: { column: 'published_year', aliases: ['year'] },
    short: true,
  },
  language: {
    kind: 'choice',
    rule: z.preprocess(
      (value) => (typeof value === 'string' ? emptyToNull(value.trim().toLowerCase()) : value),
      z.enum(bookLanguages, 'validation_book_language_invalid').nullable(),
    ),
    label: m.book_field_language,
    columnLabel: m.books_col_language,
    options: {
      codes: bookLanguages,
      name: (code) => new Intl.DisplayNames([currentIntlLocale()], { type: 'language' }).of(code) ?? code,
      none: m.book_field_no_language,
    },
    column: { sortable: true },
    tool: { description: 'A language code such as en or zh' },
    short: true,
  },
  tags: {
    kind: 'list',
    rule: z.preprocess(
      splitList,
      z
        .array(storableString().max(bookLimits.tagMax, 'validation_book_tag_too_long'), 'validation_book_tags_invalid')
        .max(bookLimits.tagsMax, 'validation_book_tags_too_many'),
    ),
    label: m.book_field_tags,
    columnLabel: m.books_col_tags,
    hint: m.book_field_tags_hint,
    csv: { aliases: ['tag'] },
    // Shown as links to the list filtered by each tag, under the details.
    details: false,
  },
  coverUrl: {
    kind: 'url',
    rule: z.preprocess(
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
    ),
    label: m.book_field_cover,
    // Shown as the cover beside the title.
    column: false,
    csv: { aliases: ['cover'] },
    tool: false,
    details: false,
  },
  description: {
    kind: 'longText',
    rule: storableString()
      .max(bookLimits.descriptionMax, 'validation_book_description_too_long')
      .transform((value) => value.trim()),
    label: m.book_field_description,
    hint: m.book_field_description_hint,
    column: false,
    // Rendered from Markdown below the details.
    details: false,
  },
})

export type BookInput = EntityValues<typeof bookEntity.fields>
export type BookFormValues = EntityTexts<typeof bookEntity.fields>
