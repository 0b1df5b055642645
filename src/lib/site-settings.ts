import { themeChoices } from '#/lib/theme'
import { z } from '#/lib/zod'

/** What an app admin may set in Configuration; the procedure and the form share it (messages are translation keys). */
export const siteSettingsInput = z.object({
  productName: z.string().trim().min(1, 'validation_required').max(60, 'validation_product_name_too_long'),
  sourceRepositoryUrl: z
    .url({ protocol: /^https?$/, error: 'validation_url_invalid' })
    .max(2000, 'validation_url_invalid'),
  defaultTheme: z.enum(themeChoices),
  docsFooterNavigation: z.boolean(),
  authEmailPassword: z.boolean(),
  authUsername: z.boolean(),
  authGithub: z.boolean(),
  authGoogle: z.boolean(),
  authGoogleOneTap: z.boolean(),
  authGenericOauth: z.boolean(),
  authMagicLink: z.boolean(),
  authEmailOtp: z.boolean(),
  authAnonymous: z.boolean(),
  authPasskey: z.boolean(),
  authSso: z.boolean(),
  signUpOpen: z.boolean(),
  emailVerificationRequired: z.boolean(),
  analyticsEnabled: z.boolean(),
  analyticsTimeZone: z.string().trim().max(64).refine(isTimeZone, 'validation_time_zone_invalid'),
  docsEditBranch: z
    .string()
    .trim()
    .regex(/^\w[\w./-]{0,99}$/, 'validation_branch_invalid')
    .refine((branch) => !branch.includes('..'), 'validation_branch_invalid'),
})

/** An IANA time zone name this runtime knows (the database knows the same names). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][\w+\-/]*$/.test(name)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

export type SiteSettingsInput = z.infer<typeof siteSettingsInput>
export type SiteSettings = SiteSettingsInput & { updatedAt: Date }
