import type { Locale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { actionEmail } from '#/server/email/templates'

/** To an organization's owners and admins: an endpoint was switched off after a day of failed deliveries. */
export function webhookDisabledEmail(options: {
  to: string
  name: string
  endpointUrl: string
  url: string
  product: string
  locale: Locale
}) {
  const { locale, product } = options
  return actionEmail({
    to: options.to,
    subject: m.email_webhook_disabled_subject({ product }, { locale }),
    greeting: m.email_greeting({ name: options.name }, { locale }),
    body: m.email_webhook_disabled_body({ url: options.endpointUrl }, { locale }),
    action: m.email_webhook_disabled_action({}, { locale }),
    url: options.url,
    footer: m.email_webhook_disabled_footer({ product }, { locale }),
  })
}
