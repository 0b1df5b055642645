import { describe, expect, it } from 'vitest'
import { backupCodeSchema, needsSecondFactor, oneTimeCodeSchema } from '#/features/auth/two-factor'

describe('two-factor code rules', () => {
  it('takes six digits, with the spaces some apps show', () => {
    expect(oneTimeCodeSchema().parse({ code: ' 123 456 ' })).toEqual({ code: '123456' })
    for (const code of ['', '12345', '1234567', '12345a']) {
      expect(oneTimeCodeSchema().safeParse({ code }).error?.issues[0]?.message).toBe('Enter the 6 digits of the code.')
    }
  })

  it('takes a backup code with or without its dash, as Better Auth stores it', () => {
    expect(backupCodeSchema().parse({ code: 'aB3dE-fG5hI' })).toEqual({ code: 'aB3dE-fG5hI' })
    expect(backupCodeSchema().parse({ code: ' aB3dEfG5hI ' })).toEqual({ code: 'aB3dE-fG5hI' })
    for (const code of ['', 'abcde', 'abcde-fghij-k', 'abc!e-fghij']) {
      expect(backupCodeSchema().safeParse({ code }).error?.issues[0]?.message).toBe(
        'Enter a backup code, like abcde-12345.',
      )
    }
  })

  it('recognises the sign-in answer that asks for the second factor, and only that one', () => {
    expect(needsSecondFactor({ twoFactorRedirect: true, twoFactorMethods: ['totp', 'otp'] })).toBe(true)
    expect(needsSecondFactor({ redirect: false, token: 'abc', user: {} })).toBe(false)
    expect(needsSecondFactor(null)).toBe(false)
  })
})
