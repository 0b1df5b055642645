import { describe, expect, it } from 'vitest'
import { keptEmailFrameDocument, textWithLinks } from '#/features/system/kept-email-frame'

describe('a kept email in the viewer', () => {
  it('opens its links in a new tab: the base comes first in the head, after the doctype (no quirks mode)', () => {
    expect(keptEmailFrameDocument('<!doctype html><html><body><a href="https://x.test">x</a></body></html>')).toBe(
      '<!doctype html><html><base target="_blank"><body><a href="https://x.test">x</a></body></html>',
    )
    expect(keptEmailFrameDocument('<!DOCTYPE html>\n<html lang="zh"><head><title>t</title></head><body></body>')).toBe(
      '<!DOCTYPE html>\n<html lang="zh"><head><base target="_blank"><title>t</title></head><body></body>',
    )
    expect(keptEmailFrameDocument('<!doctype html><p>bare</p>')).toBe(
      '<!doctype html><base target="_blank"><p>bare</p>',
    )
    expect(keptEmailFrameDocument('<p>fragment</p>')).toBe('<base target="_blank"><p>fragment</p>')
  })

  it('makes each web address of the plain text a link, and leaves the rest as text', () => {
    expect(textWithLinks('Confirm email: https://hatch.test/api/auth/verify-email?token=a.b-c&x=%2F\n\nBye')).toEqual([
      { text: 'Confirm email: ' },
      {
        text: 'https://hatch.test/api/auth/verify-email?token=a.b-c&x=%2F',
        url: 'https://hatch.test/api/auth/verify-email?token=a.b-c&x=%2F',
      },
      { text: '\n\nBye' },
    ])
    expect(textWithLinks('no links, javascript:alert(1)')).toEqual([{ text: 'no links, javascript:alert(1)' }])
  })
})
