import { z } from 'zod'

export const themeChoices = ['light', 'dark', 'system'] as const
export type ThemeChoice = (typeof themeChoices)[number]

/** What an operator may set; shared by the settings procedure and (later) the console form. */
export const siteSettingsInput = z.object({
  productName: z.string().trim().min(1, 'Required').max(60, 'Must be at most 60 characters'),
  sourceRepositoryUrl: z.url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' }).max(2000),
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
  docsEditBranch: z
    .string()
    .trim()
    .regex(/^\w[\w./-]{0,99}$/, 'Must be a branch name such as main or release/1.0')
    .refine((branch) => !branch.includes('..'), 'Must be a branch name such as main or release/1.0'),
})

export type SiteSettingsInput = z.infer<typeof siteSettingsInput>
export type SiteSettings = SiteSettingsInput & { updatedAt: Date }
