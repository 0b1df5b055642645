import { describe, expect, it } from 'vitest'
import { oneFinalStop } from '#/lib/sentence'
import { m } from '#/paraglide/messages'

describe('a sentence ending with a name', () => {
  it('does not double the full stop a name brings', () => {
    expect(oneFinalStop(m.org_left({ name: 'Acme Inc.' }, { locale: 'en' }))).toBe('You left Acme Inc.')
    expect(oneFinalStop(m.switcher_switched({ name: 'Acme Inc.' }, { locale: 'en' }))).toBe('Switched to Acme Inc.')
  })

  it('keeps a name without one, an ellipsis, and Chinese as they are', () => {
    expect(oneFinalStop(m.org_left({ name: 'Acme' }, { locale: 'en' }))).toBe('You left Acme.')
    expect(oneFinalStop('Loading...')).toBe('Loading...')
    expect(oneFinalStop(m.org_left({ name: 'Acme Inc.' }, { locale: 'zh' }))).toBe(
      m.org_left({ name: 'Acme Inc.' }, { locale: 'zh' }),
    )
  })
})
