import { z } from '#/lib/zod'
import { locales } from '#/paraglide/runtime'

// Messages are keys of the message catalogues, so the browser shows them translated (see src/lib/errors.ts).
export const newsletterSubscription = z.object({
  email: z
    .string({ error: 'validation_email_required' })
    .trim()
    .min(1, 'validation_email_required')
    .max(254, 'validation_email_invalid')
    .pipe(z.email('validation_email_invalid')),
  locale: z.enum(locales),
})

export type NewsletterSubscription = z.infer<typeof newsletterSubscription>
