import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { activityActions } from '../activity'

/** What each of single sign-on's actions is recorded with (server/sso-router.ts), besides the actor. */
const recordedDetails: Record<keyof typeof activityActions, readonly string[]> = {
  sso_saved: ['protocol', 'domain'],
  sso_domain_verified: ['domain'],
  sso_required: ['domain'],
  sso_not_required: ['domain'],
  sso_removed: ['domain'],
}

describe("single sign-on's activity sentences", () => {
  for (const locale of ['en', 'zh']) {
    it(`use only what each action records, plus the actor (${locale})`, () => {
      const messages = JSON.parse(
        readFileSync(path.resolve('src/features/sso/messages', `${locale}.json`), 'utf8'),
      ) as Record<string, unknown>
      const problems = Object.entries(recordedDetails).flatMap(([action, details]) => {
        const message = messages[`activity_${action}`]
        if (typeof message !== 'string') return [`activity_${action} is missing`]
        const known = new Set(['actor', ...details])
        return [...message.matchAll(/\{(\w+)\}/g)]
          .map((match) => match[1] ?? '')
          .filter((name) => !known.has(name))
          .map((name) => `activity_${action} uses {${name}}, which ${action} does not record`)
      })
      expect(problems).toEqual([])
    })
  }
})
