// Every refusal the server can send as an app code (AppError's `appCode`, the failure answers' `code`) has English and
// Chinese text on the client: read from the source, so a new code fails here until it is translated (issue 29).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { TRPCClientError } from '@trpc/client'
import { afterEach, describe, expect, it } from 'vitest'
import { apps } from '#/apps.gen'
import { appPlanLimits, planTooSmallCode } from '#/lib/app-plan-limits'
import { describeError, translateAppError } from '#/lib/errors'
import { getLocale, overwriteGetLocale } from '#/paraglide/runtime'

// Screens register their own messages when loaded (addFeatureMessages, in a `*-messages.ts` module): load them all,
// the core's and the installed apps'.
import.meta.glob('../../src/features/**/*-messages.ts', { eager: true })

const sourceFiles = (readdirSync('src', { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => /\.tsx?$/.test(file) && !file.startsWith('paraglide'))
  .map((file) => readFileSync(path.join('src', file), 'utf8'))

/**
 * `appCode: 'CODE'` anywhere; plan limits (`PLAN_LIMIT_…` built from the limit's name, and the refused plan changes of
 * the apps' limits); the failure answers.
 */
const raisedCodes = [
  ...new Set([
    ...sourceFiles.flatMap((text) => [...text.matchAll(/appCode: '([A-Z_]+)'/g)].map((match) => match[1] ?? '')),
    ...sourceFiles.flatMap((text) => [...text.matchAll(/'(PLAN_LIMIT_[A-Z_]+)'/g)].map((match) => match[1] ?? '')),
    // Refused plan changes, raised by the app that sells plans (billing) where one is installed.
    ...(apps.some((app) => app.planPages)
      ? appPlanLimits.flatMap((limit) => (limit.downgrade ? [planTooSmallCode(limit.name)] : []))
      : []),
    'STORAGE_FULL',
    'SERVICE_UNAVAILABLE',
    'INTERNAL_SERVER_ERROR',
  ]),
].sort()

const params = { limit: '50', count: '3', resource: 'member', plan: 'free' }

describe('app error codes', () => {
  const serverLocale = getLocale
  afterEach(() => overwriteGetLocale(serverLocale))

  it('finds the codes the server raises', () => {
    expect(raisedCodes).toEqual(
      expect.arrayContaining(['YOU_CANNOT_REMOVE_YOURSELF', 'PLAN_LIMIT_MEMBERS', 'OWNER_ONLY']),
    )
    expect(raisedCodes.length).toBeGreaterThan(20)
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
    const message = 'Delete your own account from the Account page'
    const refusal = new TRPCClientError(message, {
      result: { error: { message, data: { code: 'BAD_REQUEST', appCode: 'YOU_CANNOT_REMOVE_YOURSELF' } } },
    })
    overwriteGetLocale(() => 'zh')
    const chinese = describeError(refusal)
    expect(chinese).toBe(translateAppError('YOU_CANNOT_REMOVE_YOURSELF'))
    expect(chinese).not.toContain(message)
  })
})
