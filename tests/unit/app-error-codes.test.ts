// Every refusal the server can send as an app code (AppError's `appCode`, the failure answers' `code`) has English and
// Chinese text on the client: read from the source, so a new code fails here until it is translated (issue 29).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { TRPCClientError } from '@trpc/client'
import { afterEach, describe, expect, it } from 'vitest'
import { describeError, translateAppError } from '#/lib/errors'
import { getLocale, overwriteGetLocale } from '#/paraglide/runtime'

// Screens register their own messages when loaded (addFeatureMessages, in a `*-messages.ts` module): load them all,
// the core's and the installed apps'.
import.meta.glob('../../src/features/**/*-messages.ts', { eager: true })

const sourceFiles = (readdirSync('src', { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => /\.tsx?$/.test(file) && !file.startsWith('paraglide'))
  .map((file) => readFileSync(path.join('src', file), 'utf8'))

/** `appCode: 'CODE'` anywhere; plan limits (`PLAN_LIMIT_…` built from the limit's name); the failure answers. */
const raisedCodes = [
  ...new Set([
    ...sourceFiles.flatMap((text) => [...text.matchAll(/appCode: '([A-Z_]+)'/g)].map((match) => match[1] ?? '')),
    ...sourceFiles.flatMap((text) => [...text.matchAll(/'(PLAN_LIMIT_[A-Z_]+)'/g)].map((match) => match[1] ?? '')),
    'STORAGE_FULL',
    'SERVICE_UNAVAILABLE',
    'INTERNAL_SERVER_ERROR',
  ]),
].sort()

const params = { limit: '50', count: '3', resource: 'book', plan: 'free' }

describe('app error codes', () => {
  const serverLocale = getLocale
  afterEach(() => overwriteGetLocale(serverLocale))

  it('finds the codes the server raises', () => {
    expect(raisedCodes).toEqual(expect.arrayContaining(['BOOK_NOT_FOUND', 'PLAN_LIMIT_BOOKS', 'OWNER_ONLY']))
    expect(raisedCodes.length).toBeGreaterThan(40)
  })

  it('has English and Chinese text for each, different from each other', () => {
    const untranslated: string[] = []
    for (const code of raisedCodes) {
      overwriteGetLocale(() => 'en')
      const english = translateAppError(code, params)
      overwriteGetLocale(() => 'zh')
      const chinese = translateAppError(code, params)
      if (!english?.trim() || !chinese?.trim() || english === chinese) untranslated.push(code)
    }
    expect(untranslated).toEqual([])
  })

  it('is what the user reads when a call fails with it, in the language of the page', () => {
    const refusal = new TRPCClientError('This book does not exist', {
      result: {
        error: { message: 'This book does not exist', data: { code: 'NOT_FOUND', appCode: 'BOOK_NOT_FOUND' } },
      },
    })
    overwriteGetLocale(() => 'zh')
    const chinese = describeError(refusal)
    expect(chinese).toBe(translateAppError('BOOK_NOT_FOUND'))
    expect(chinese).not.toContain('This book does not exist')
  })
})
