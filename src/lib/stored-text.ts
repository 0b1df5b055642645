import { z } from '#/lib/zod'

// PostgreSQL's text type refuses the NUL character, and the embedded database (PGlite) refuses a lone UTF-16
// surrogate (half of an emoji, which JSON can carry): a value with either made its query fail and the procedure answer
// 500 with the query (found by tests/fuzz). Every text an input stores or looks up is checked here first, so the
// mistake is the user's 400 with a translated message, before any query runs.

export const textInvalidCharactersMessage = 'validation_text_invalid_characters'

/** In a `u` pattern a surrogate pair is one code point, so only a lone half matches. */
const loneSurrogate = /[\ud800-\udfff]/u

export const isStorableText = (value: string) => !value.includes('\u0000') && !loneSurrogate.test(value)

/** A string PostgreSQL can store and compare; chain the field's own rules on it. */
export const storableString = (message?: string) =>
  z.string(message).refine(isStorableText, textInvalidCharactersMessage)

/** The id of a stored row, as the client names it (the rows' own ids are at most 100 characters). */
export const recordId = () => storableString().min(1).max(100)
