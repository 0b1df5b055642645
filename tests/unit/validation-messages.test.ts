import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { translateMessage } from '#/lib/errors'
import { getLocale, overwriteGetLocale } from '#/paraglide/runtime'

// Screens register their own messages when loaded (addFeatureMessages, in a `*-messages.ts` module), and entity
// definitions their fields' (`*-entity.ts`): load them all, the core's and the installed apps'.
import.meta.glob(['../../src/features/**/*-messages.ts', '../../src/features/**/*-entity.ts'], { eager: true })

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name)
    // Tests name keys they write into a copy of the project (add-a-field.test.ts), not keys a schema uses.
    if (statSync(file).isDirectory()) return name === 'tests' ? [] : sourceFiles(file)
    return /\.tsx?$/.test(name) ? [file] : []
  })
}

// Schemas name their messages by key ('validation_…'); a key the translator does not know reaches the reader raw.
const keysInSchemas = [
  ...new Set(
    sourceFiles(path.resolve('src/features'))
      .concat(sourceFiles(path.resolve('src/lib')))
      .flatMap((file) => [
        ...readFileSync(file, 'utf8').matchAll(/['"`](validation_[a-z0-9_]+|members_role_required)['"`]/g),
      ])
      .map((match) => match[1] as string),
  ),
].sort()

describe('validation messages named by schemas', () => {
  const original = getLocale
  afterEach(() => overwriteGetLocale(original))

  it('finds the keys the schemas use', () => {
    expect(keysInSchemas).toContain('validation_required')
    expect(keysInSchemas).toContain('validation_list_sort_invalid')
  })

  it.each(['en', 'zh'] as const)('translates every one of them in %s', (locale) => {
    overwriteGetLocale(() => locale)
    const untranslated = keysInSchemas.filter((key) => translateMessage(key) === key)
    expect(untranslated).toEqual([])
  })
})
