import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { API_KEY_ERROR_CODES } from '@better-auth/api-key'
import { PASSKEY_ERROR_CODES } from '@better-auth/passkey'
import { BASE_ERROR_CODES } from 'better-auth'
import {
  ADMIN_ERROR_CODES,
  ANONYMOUS_ERROR_CODES,
  EMAIL_OTP_ERROR_CODES,
  MULTI_SESSION_ERROR_CODES,
  ORGANIZATION_ERROR_CODES,
} from 'better-auth/client/plugins'
import { genericOAuth, magicLink, oneTap, TWO_FACTOR_ERROR_CODES, USERNAME_ERROR_CODES } from 'better-auth/plugins'
import { afterEach, describe, expect, it } from 'vitest'
import { authErrorMessages } from '#/lib/auth-error-messages'
import { describeAuthError } from '#/lib/auth-errors'
import { getLocale, overwriteGetLocale } from '#/paraglide/runtime'

// A message is a string, or its plural forms (an array of variants): either way, present when not empty.
const load = (locale: string) =>
  Object.fromEntries(
    Object.entries(
      JSON.parse(readFileSync(path.resolve('messages', `${locale}.json`), 'utf8')) as Record<string, unknown>,
    ).map(([key, message]) => [key, typeof message === 'string' ? message : JSON.stringify(message)]),
  )
const messages = { en: load('en'), zh: load('zh') }

// Read from the installed packages, so a Better Auth upgrade that adds a code fails here until it is translated.
const installedCodeSets: Record<string, Record<string, { code: string; message: string }>> = {
  core: BASE_ERROR_CODES,
  username: USERNAME_ERROR_CODES,
  emailOtp: EMAIL_OTP_ERROR_CODES,
  twoFactor: TWO_FACTOR_ERROR_CODES,
  anonymous: ANONYMOUS_ERROR_CODES,
  multiSession: MULTI_SESSION_ERROR_CODES,
  passkey: PASSKEY_ERROR_CODES,
  apiKey: API_KEY_ERROR_CODES,
  organization: ORGANIZATION_ERROR_CODES,
  admin: ADMIN_ERROR_CODES,
  // Not exported as objects: read from the plugins themselves, as Better Auth merges them.
  genericOAuth: genericOAuth({ config: [] }).$ERROR_CODES,
  magicLink:
    (magicLink({ sendMagicLink: async () => {} }) as { $ERROR_CODES?: Record<string, never> }).$ERROR_CODES ?? {},
  oneTap: (oneTap() as { $ERROR_CODES?: Record<string, never> }).$ERROR_CODES ?? {},
}

// Thrown by our hooks: every `code: '…'` and `notEnabled('…'` in src/server/auth/, so a new hook's code fails here until it is translated.
const authServerDir = path.resolve('src/server/auth')
const ourCodes = readdirSync(authServerDir)
  .filter((file) => file.endsWith('.ts'))
  .flatMap((file) => [
    ...readFileSync(path.join(authServerDir, file), 'utf8').matchAll(/\b(?:code: |notEnabled\()'([A-Z_]+)'/g),
  ])
  .map((match) => match[1] ?? '')

const installedCodes = Object.values(installedCodeSets).flatMap((codes) => Object.keys(codes))
const tableCodes = Object.keys(authErrorMessages)

describe('Better Auth error codes', () => {
  it('reads codes from the installed packages in the shape the table expects', () => {
    for (const codes of Object.values(installedCodeSets)) {
      for (const [key, value] of Object.entries(codes)) expect(value.code).toBe(key)
    }
    expect(installedCodes).toContain('INVALID_EMAIL_OR_PASSWORD')
    expect(installedCodes).toContain('PASSKEY_NOT_FOUND')
    expect(installedCodes).toContain('KEY_NOT_FOUND')
  })

  it('lists every code Better Auth and our hooks can answer with', () => {
    expect(ourCodes).toEqual(
      expect.arrayContaining(['PASSWORD_NEEDS_LETTER_AND_NUMBER', 'USERNAME_SIGN_IN_IS_NOT_ENABLED']),
    )
    const missing = [...new Set([...installedCodes, ...ourCodes])].filter((code) => !tableCodes.includes(code))
    expect(missing).toEqual([])
  })

  it('has an English and a Chinese message for every listed code', () => {
    for (const locale of ['en', 'zh'] as const) {
      const untranslated = tableCodes.filter((code) => !messages[locale][`error_code_${code}`]?.trim())
      expect(untranslated, locale).toEqual([])
    }
  })
})

describe('describeAuthError', () => {
  const serverLocale = getLocale
  afterEach(() => overwriteGetLocale(serverLocale))

  it('translates a code into the language of the page', () => {
    const error = { code: 'INVALID_OTP', message: 'Invalid OTP', status: 400 }
    overwriteGetLocale(() => 'en')
    expect(describeAuthError(error)).toBe('The code is not correct.')
    overwriteGetLocale(() => 'zh')
    expect(describeAuthError(error)).toBe('验证码不正确。')
  })

  it("shows the server's message for a code it does not know", () => {
    overwriteGetLocale(() => 'zh')
    const error = { code: 'SOMETHING_NEW', message: 'Something new went wrong', status: 400 }
    expect(describeAuthError(error)).toBe('Something new went wrong')
    expect(describeAuthError({ code: 'toString', message: 'Odd code', status: 400 })).toBe('Odd code')
  })

  it('tells a rate-limited user to wait, in their language', () => {
    const error = { message: 'Too many requests. Please try again later.', status: 429 }
    overwriteGetLocale(() => 'en')
    expect(describeAuthError(error)).toBe('Too many requests. Please wait a moment and try again.')
    overwriteGetLocale(() => 'zh')
    expect(describeAuthError(error)).toBe('请求过于频繁，请稍后再试。')
  })
})
