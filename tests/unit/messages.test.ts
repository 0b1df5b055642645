import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { m } from '#/paraglide/messages'

/** A message with variants (plural forms) is an array of `{ declarations, selectors, match }`. */
type Stored = string | { match: Record<string, string> }[]

/** Every pattern of a message, its variants joined, so that a check reads all of them. */
const textOf = (message: Stored | undefined): string =>
  typeof message === 'string' ? message : (message ?? []).flatMap((part) => Object.values(part.match)).join('\n')

const load = (locale: string) => {
  const stored = JSON.parse(readFileSync(path.resolve('messages', `${locale}.json`), 'utf8')) as Record<string, Stored>
  return Object.fromEntries(Object.entries(stored).map(([key, message]) => [key, textOf(message)]))
}
const en = load('en')
const zh = load('zh')
const keys = (messages: Record<string, string>) => Object.keys(messages).filter((key) => key !== '$schema')
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]))].sort()

describe('UI strings', () => {
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
    expect(m.books_import_problems({ problems: '1', rows: '1' }, { locale: 'en' })).toMatch(/^1 problem in 1 row\./)
    expect(m.books_import_problems({ problems: '4', rows: '2' }, { locale: 'en' })).toMatch(/^4 problems in 2 rows\./)
    expect(m.dashboard_revenue_totals({ orders: '1', amount: '$19', refunded: '$0' }, { locale: 'en' })).toMatch(
      /^1 order ·/,
    )
    expect(m.users_total({ count: '1' }, { locale: 'zh' })).toBe('共 1 位用户')
  })

  it('really translates: Chinese text is not the English text copied', () => {
    // Language names, e-mail placeholders and the like may legitimately be the same.
    const allowedSame = new Set([
      'newsletter_email_placeholder',
      'docs_page_title',
      'account_session_ip',
      'books_col_isbn',
      'book_field_isbn',
      // Protocol names.
      'sso_protocol_saml',
      'sso_protocol_oidc',
    ])
    const copied = keys(en).filter((key) => !allowedSame.has(key) && en[key] === zh[key])
    expect(copied).toEqual([])
  })
})
