import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { installedApps } from '#/apps'
import { m } from '#/paraglide/messages'
import { messageCatalogues } from '../../scripts/generate-apps'

/** A message with variants (plural forms) is an array of `{ declarations, selectors, match }`. */
type Stored = string | { match: Record<string, string> }[]

/** Every pattern of a message, its variants joined, so that a check reads all of them. */
const textOf = (message: Stored | undefined): string =>
  typeof message === 'string' ? message : (message ?? []).flatMap((part) => Object.values(part.match)).join('\n')

/** Each catalogue's file for a language: the core's and every installed app's (scripts/generate-apps.ts). */
const catalogues = (locale: string) =>
  messageCatalogues(installedApps).map((pattern) => path.resolve(pattern.replace('{locale}', locale)))
const readCatalogue = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, Stored>
/** Every message of a language, from all its catalogues. */
const stored = (locale: string) => Object.assign({}, ...catalogues(locale).map(readCatalogue)) as Record<string, Stored>

const load = (locale: string) =>
  Object.fromEntries(Object.entries(stored(locale)).map(([key, message]) => [key, textOf(message)]))
const en = load('en')
const zh = load('zh')
const keys = (messages: Record<string, string>) => Object.keys(messages).filter((key) => key !== '$schema')
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]))].sort()

/** Placeholders that hold a number of things (the rest hold names, dates, amounts and sizes). */
const countNames = new Set(
  'count total rows problems imported orders used allowed limit max min minutes seconds hours days seats pages visitors pageviews previousVisitors previousPageviews sent queued held dead delivered failed pending current'.split(
    ' ',
  ),
)

const inputsOf = (message: unknown) => {
  const text = JSON.stringify(message)
  return [...new Set([...text.matchAll(/\{(\w+)\}/g), ...text.matchAll(/input (\w+)/g)].map((match) => match[1] ?? ''))]
}

/** Every English message with a count, and its other placeholders. */
const countingMessages = () => {
  return Object.entries(stored('en')).flatMap(([key, message]) => {
    const inputs = key === '$schema' ? [] : inputsOf(message)
    const counts = inputs.filter((name) => countNames.has(name))
    return counts.length ? [{ key, counts, others: inputs.filter((name) => !countNames.has(name)) }] : []
  })
}

const render = (key: string, inputs: Record<string, string>) =>
  (m as unknown as Record<string, (inputs: unknown, options: { locale: 'en' }) => string>)[key]?.(inputs, {
    locale: 'en',
  }) ?? ''

// Words that may follow a number without being what it counts ("1 of 3", "1 is", "1 in total").
const notCounted = new Set([
  'of',
  'to',
  'in',
  'on',
  'at',
  'from',
  'as',
  'for',
  'by',
  'its',
  'is',
  'was',
  'has',
  'does',
  'the',
  'and',
  'or',
  'than',
])

/** The phrases where "1" stands before a plural noun, right after it or after one word ("1 books", "1 page views"). */
function pluralAfterOne(text: string): string[] {
  return [...text.matchAll(/(?<![\w.,])1 ([A-Za-z]+)(?: ([A-Za-z]+))?/g)].flatMap((match) => {
    const [phrase, first = '', second = ''] = match
    if (notCounted.has(first.toLowerCase())) return []
    const plural = (word: string) => /[a-z]s$/.test(word) && !notCounted.has(word.toLowerCase())
    return plural(first) || plural(second) ? [phrase] : []
  })
}

describe('UI strings', () => {
  it('keep each key in one catalogue, with the same keys in both languages', () => {
    const owners = new Map<string, string>()
    for (const [index, file] of catalogues('en').entries()) {
      const own = keys(readCatalogue(file) as Record<string, string>)
      const translated = keys(readCatalogue(catalogues('zh')[index] ?? '') as Record<string, string>)
      expect(translated.sort(), `${file}'s keys, in Chinese`).toEqual([...own].sort())
      for (const key of own) {
        expect(owners.get(key), `${key} is in ${owners.get(key)} and ${file}`).toBeUndefined()
        owners.set(key, file)
      }
    }
  })

  it('has every English key in Chinese', () => {
    expect(keys(en).filter((key) => !(key in zh))).toEqual([])
  })

  it('has every Chinese key in English', () => {
    expect(keys(zh).filter((key) => !(key in en))).toEqual([])
  })

  it('has no empty translation', () => {
    expect(keys(en).filter((key) => !en[key]?.trim())).toEqual([])
    expect(keys(zh).filter((key) => !zh[key]?.trim())).toEqual([])
  })

  it('uses the same placeholders in both languages', () => {
    const mismatched = keys(en).filter(
      (key) => JSON.stringify(placeholders(en[key] ?? '')) !== JSON.stringify(placeholders(zh[key] ?? '')),
    )
    expect(mismatched).toEqual([])
  })

  it('says one thing and many things in English as English does', () => {
    expect(m.users_total({ count: '1' }, { locale: 'en' })).toBe('1 user')
    expect(m.users_total({ count: '2' }, { locale: 'en' })).toBe('2 users')
    expect(m.users_total({ count: '1,234' }, { locale: 'en' })).toBe('1,234 users')
    expect(m.plan_feature_members({ count: '1' }, { locale: 'en' })).toBe('Up to 1 member per organization')
    expect(m.plan_feature_members({ count: '10' }, { locale: 'en' })).toBe('Up to 10 members per organization')
    expect(m.users_total({ count: '1' }, { locale: 'zh' })).toBe('共 1 位用户')
  })

  it('says "1 book", never "1 books": every message that counts something has a form for one', () => {
    const wrong = countingMessages().flatMap(({ key, counts, others }) =>
      counts.flatMap((count) => {
        const inputs = {
          ...Object.fromEntries(others.map((name) => [name, 'X'])),
          ...Object.fromEntries(counts.map((name) => [name, '9'])),
        }
        const text = render(key, { ...inputs, [count]: '1' })
        return pluralAfterOne(text).map((phrase) => `${key} ({${count}} = 1): "${phrase}" in "${text}"`)
      }),
    )
    expect(wrong).toEqual([])
  })

  it('really translates: Chinese text is not the English text copied', () => {
    // An example address (a placeholder), a name of capitalised words and numbers ("SAML 2.0", "OpenID Connect") and
    // words no language translates may legitimately be the same.
    const isAddress = (text: unknown) => typeof text === 'string' && /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/.test(text)
    const isName = (text: unknown) => typeof text === 'string' && /^[A-Z0-9][\w.]*( [A-Z0-9][\w.]*)*$/.test(text)
    const allowedSame = new Set(['docs_page_title', 'account_session_ip', 'books_col_isbn', 'book_field_isbn'])
    const copied = keys(en).filter(
      (key) => !allowedSame.has(key) && !isAddress(en[key]) && !isName(en[key]) && en[key] === zh[key],
    )
    expect(copied).toEqual([])
  })
})
