import { addFeatureMessages } from '#/lib/errors'
import { m } from '#/paraglide/messages'
import { bookLimits, latestPublishedYear } from './book-rules'

const yearRange = () => ({ min: String(bookLimits.yearMin), max: String(latestPublishedYear()) })

// The books' field messages and refusals, registered where books are shown (its screens) and served (its router), so
// they ship with those and leave with the app.
addFeatureMessages({
  validation_isbn_invalid: () => m.validation_isbn_invalid(),
  validation_isbn_taken: () => m.validation_isbn_taken(),
  validation_isbn_duplicate_in_file: () => m.validation_isbn_duplicate_in_file(),
  validation_year_invalid: () => m.validation_year_invalid(yearRange()),
  validation_book_title_too_long: () => m.validation_book_title_too_long({ max: String(bookLimits.titleMax) }),
  validation_book_author_too_long: () => m.validation_book_author_too_long({ max: String(bookLimits.authorMax) }),
  validation_book_authors_too_many: () => m.validation_book_authors_too_many({ max: String(bookLimits.authorsMax) }),
  validation_book_authors_invalid: () => m.validation_book_authors_invalid(),
  validation_book_language_invalid: () => m.validation_book_language_invalid(),
  validation_book_tags_too_many: () => m.validation_book_tags_too_many({ max: String(bookLimits.tagsMax) }),
  validation_book_tag_too_long: () => m.validation_book_tag_too_long({ max: String(bookLimits.tagMax) }),
  validation_book_tags_invalid: () => m.validation_book_tags_invalid(),
  validation_cover_url_invalid: () => m.validation_cover_url_invalid(),
  validation_book_description_too_long: () =>
    m.validation_book_description_too_long({ max: String(bookLimits.descriptionMax) }),
  validation_import_too_large: () => m.validation_import_too_large(),
  import_no_title_column: () => m.import_no_title_column(),
  import_empty: () => m.import_empty(),
  import_too_many_rows: () => m.import_too_many_rows(),
  import_malformed_row: () => m.import_malformed_row(),
  import_failed: () => m.import_failed(),
  // Its refusals' codes
  BOOK_NOT_FOUND: () => m.error_code_BOOK_NOT_FOUND(),
  BOOK_ISBN_TAKEN: () => m.error_code_BOOK_ISBN_TAKEN(),
  IMPORT_HAS_ERRORS: () => m.error_code_IMPORT_HAS_ERRORS(),
  PLAN_LIMIT_BOOKS: (params) => m.error_code_PLAN_LIMIT_BOOKS({ limit: params.limit ?? '' }),
})
