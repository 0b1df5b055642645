import { emailField } from '#/lib/account-rules'
import { z } from '#/lib/zod'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** How long an emailed sign-in link or code works (src/server/auth/auth.ts sets the same). */
export const emailSignInMinutes = 5

export const emailOnlySchema = z.object({ email: emailField })

/** A 6-digit code as the email shows it; spaces people type or paste between the digits are dropped. */
export const emailCodeSchema = z.object({
  code: z
    .string()
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, { error: () => m.email_signin_code_required() })
        .regex(/^\d{6}$/, { error: () => m.email_signin_code_invalid() }),
    ),
})

/**
 * Where a dead sign-in link lands (Better Auth adds `error`), keeping `redirect` so asking for a new link from there
 * still ends up where the visitor wanted.
 */
export function magicLinkErrorPath(redirect: string | undefined): string {
  return `${localizeHref('/magic-link')}${redirect ? `?${new URLSearchParams({ redirect })}` : ''}`
}
