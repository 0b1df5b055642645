import { emailMaxLength, isUploadedPictureUrl, nameMaxLength } from '#/lib/account-rules'
import { safeRedirectPath } from '#/lib/safe-redirect'
import { isStorableText } from '#/lib/stored-text'

/** A picture field's value: one this site stored from an upload (see isUploadedPictureUrl), or nothing. */
export const isUploadedPicture = (value: unknown, appUrl: string, folder: 'avatars' | 'logos') =>
  typeof value === 'string' && isUploadedPictureUrl(value, appUrl, folder)

export interface MalformedRequest {
  code: string
  message: string
}

// Paths whose `name` is the user's display name (elsewhere `name` names an API key or a passkey, checked by them).
const userNamePaths = new Set(['/sign-up/email', '/update-user', '/sign-in/magic-link', '/sign-in/email-otp'])

/**
 * What is wrong with a request body that Better Auth would otherwise answer with a 500 or a database error
 * (a `null` body breaks the username plugin's sign-up hook; an address past the index size limit fails the insert),
 * or would store as it is (a name of any length); null when it is fine for Better Auth's own validation to judge.
 */
export function malformedRequestError(path: string, body: unknown, appUrl: string): MalformedRequest | null {
  // No body, or text (Better Auth's own validation refuses text where it wants fields).
  if (body === undefined || typeof body === 'string') return null
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { code: 'BODY_MUST_BE_AN_OBJECT', message: 'Body must be an object' }
  }
  const { email, newEmail, name, image } = body as Record<string, unknown>
  for (const address of [email, newEmail]) {
    if (typeof address === 'string' && address.length > emailMaxLength) {
      return { code: 'INVALID_EMAIL', message: 'Invalid email' }
    }
  }
  if (userNamePaths.has(path) && typeof name === 'string' && name.trim().length > nameMaxLength) {
    return { code: 'NAME_TOO_LONG', message: 'Name is too long' }
  }
  // Sign-up and the profile need a name (links and codes sign up from an address alone and name the user after it).
  if ((path === '/sign-up/email' || path === '/update-user') && typeof name === 'string' && name.trim() === '') {
    return { code: 'PROFILE_NAME_REQUIRED', message: 'Name is required' }
  }
  if (image !== undefined && image !== null && image !== '' && !isUploadedPicture(image, appUrl, 'avatars')) {
    return { code: 'INVALID_IMAGE_URL', message: 'Upload the picture: an address from elsewhere is not accepted' }
  }
  // The organization plugin drops unknown keys and then updates nothing, which its adapter fails on with a 500
  // (found by `npm run fuzz`).
  const { data } = body as { data?: unknown }
  if (
    path === '/organization/update' &&
    typeof data === 'object' &&
    data !== null &&
    !organizationUpdateFields.some((field) => Object.hasOwn(data, field))
  ) {
    return { code: 'NOTHING_TO_UPDATE', message: 'Name at least one field to change' }
  }
  return null
}

/** What `/organization/update` changes (the organization plugin's own fields; Hatch adds none). */
const organizationUpdateFields = ['name', 'slug', 'logo', 'metadata']

/**
 * The longest /api/auth path taken. Better Auth's rate limiter stores its key (client address and path) in an
 * indexed column before any check of ours runs, and a path past PostgreSQL's index entry limit (~2.7 KB) failed that
 * insert with a 500 (found by tests/fuzz). Its own paths are far shorter; the query (a provider's code and state)
 * is not part of the key and may be longer.
 */
export const authPathMaxLength = 2000
const authUrlMaxLength = 32 * 1024

export function authUrlTooLongError(url: string): MalformedRequest | null {
  const tooLong = url.length > authUrlMaxLength || new URL(url).pathname.length > authPathMaxLength
  return tooLong ? { code: 'URL_TOO_LONG', message: 'The address is too long' } : null
}

function holdsUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return !isStorableText(value)
  if (!value || typeof value !== 'object' || depth > 20) return false
  return Object.values(value).some((item) => holdsUnstorableText(item, depth + 1))
}

/**
 * A NUL character or half an emoji anywhere in a body or query: Better Auth would pass it to a query, which the
 * database refuses (a 500 with the query, found by tests/fuzz; see src/lib/stored-text.ts).
 */
export function unstorableTextError(body: unknown, query: unknown): MalformedRequest | null {
  return holdsUnstorableText(body) || holdsUnstorableText(query)
    ? { code: 'INVALID_CHARACTERS', message: 'The request contains characters that are not allowed' }
    : null
}

/**
 * The fields Better Auth's list endpoints may sort and filter by. It passes `sortBy` and `filterField` to the
 * database as column names, so an unknown one (`?sortBy=undefined`, `?filterField=undefined`) failed the query with a
 * 500 (found by tests/fuzz).
 */
const listFields: Record<string, readonly string[]> = {
  '/api-key/list': ['name', 'createdAt', 'updatedAt', 'expiresAt', 'lastRequest', 'enabled', 'remaining'],
  '/admin/list-users': ['name', 'email', 'createdAt', 'updatedAt', 'role', 'banned', 'emailVerified'],
  '/organization/list-members': ['createdAt', 'role', 'userId'],
}

export function unknownListFieldError(path: string, query: unknown): MalformedRequest | null {
  const allowed = listFields[path]
  if (!allowed || !query || typeof query !== 'object') return null
  const { sortBy, filterField } = query as Record<string, unknown>
  const known = (field: unknown) => field === undefined || (typeof field === 'string' && allowed.includes(field))
  if (!known(sortBy)) return { code: 'INVALID_SORT_FIELD', message: 'The list cannot be sorted by that field' }
  if (!known(filterField)) {
    return { code: 'INVALID_FILTER_FIELD', message: 'The list cannot be filtered by that field' }
  }
  return null
}

/** Where Better Auth sends the browser after an emailed link, a provider round trip or a verification. */
const redirectFields = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL', 'redirectTo'] as const

function isOnThisSite(value: unknown, appUrl: string): boolean {
  if (typeof value !== 'string') return false
  if (safeRedirectPath(value) !== null) return true
  try {
    return new URL(value).origin === new URL(appUrl).origin
  } catch {
    return false
  }
}

/**
 * A redirect target (in the body or the query) that leaves this site. Better Auth 1.7.25 does not check every one of
 * them (a magic link asked for with `callbackURL: https://evil.example` would send whoever opens the genuine email
 * there), so every auth request is checked here: a path on this site or an absolute URL on APP_URL's origin only.
 */
export function offSiteRedirectError(body: unknown, query: unknown, appUrl: string): MalformedRequest | null {
  for (const source of [body, query]) {
    if (!source || typeof source !== 'object') continue
    for (const field of redirectFields) {
      const value = (source as Record<string, unknown>)[field]
      if (value !== undefined && !isOnThisSite(value, appUrl)) {
        return { code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' }
      }
    }
  }
  return null
}
