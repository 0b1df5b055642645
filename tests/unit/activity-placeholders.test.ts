import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { activityActions } from '#/features/organizations/server/organization-activity'

type CoreActivityAction = (typeof activityActions)[number]

/**
 * The details each action is recorded with (in src/features/organizations/server: organization-plugin.ts,
 * organization-checks.ts, personal-organization.ts and the organizations router). Typed by action, so a new action fails to compile until
 * someone says what it carries; a placeholder outside this list would render as an empty gap in the sentence.
 */
const recordedDetails: Record<CoreActivityAction, readonly string[]> = {
  organization_created: ['name'],
  organization_updated: ['name'],
  member_invited: ['email', 'role'],
  invitation_canceled: ['email'],
  invitation_rejected: ['email'],
  member_joined: ['name', 'email', 'role'],
  member_added: ['name', 'email', 'role'],
  member_removed: ['name', 'email'],
  member_left: ['name', 'email'],
  member_role_changed: ['name', 'from', 'to'],
  ownership_transferred: ['name', 'from'],
  team_created: ['team'],
  team_renamed: ['team'],
  team_deleted: ['team'],
  team_member_added: ['team', 'name'],
  team_member_removed: ['team', 'name'],
  role_created: ['role'],
  role_updated: ['role'],
  role_deleted: ['role'],
}

const load = (locale: string) =>
  JSON.parse(readFileSync(path.resolve('messages', `${locale}.json`), 'utf8')) as Record<string, unknown>

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1])

describe('the activity sentences', () => {
  for (const locale of ['en', 'zh']) {
    it(`use only what each action records, plus the actor (${locale})`, () => {
      const messages = load(locale)
      const problems = activityActions.flatMap((action) => {
        const message = messages[`activity_${action}`]
        if (typeof message !== 'string') return [`activity_${action} is missing`]
        const known = new Set(['actor', ...recordedDetails[action]])
        return placeholders(message)
          .filter((name) => !known.has(name ?? ''))
          .map((name) => `activity_${action} uses {${name}}, which ${action} does not record`)
      })
      expect(problems).toEqual([])
    })
  }
})
