/** Password length limits, shared by the sign-up form and Better Auth. */
export const passwordLimits = { min: 8, max: 128 } as const

/** True when a password lacks a letter or a digit. */
export function passwordNeedsLetterAndNumber(password: string): boolean {
  return !/\p{L}/u.test(password) || !/\p{N}/u.test(password)
}
