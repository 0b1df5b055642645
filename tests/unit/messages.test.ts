import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const load = (locale: string) =>
  JSON.parse(readFileSync(path.resolve('messages', `${locale}.json`), 'utf8')) as Record<string, string>
const en = load('en')
const zh = load('zh')
const keys = (messages: Record<string, string>) => Object.keys(messages).filter((key) => key !== '$schema')
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

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

  it('really translates: Chinese text is not the English text copied', () => {
    // Language names, e-mail placeholders and the like may legitimately be the same.
    const allowedSame = new Set([
      'newsletter_email_placeholder',
      'docs_page_title',
      'account_session_ip',
      'books_col_isbn',
      'book_field_isbn',
    ])
    const copied = keys(en).filter((key) => !allowedSame.has(key) && en[key] === zh[key])
    expect(copied).toEqual([])
  })
})
