import { getLocale, intlLocales, type Locale } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'
import type { NotificationType } from './notification-types'

type Params = Record<string, string>

/** A day stored as `YYYY-MM-DD`, as people write it in the text's language. */
function localDay(day: string | undefined, locale: Locale | undefined): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return day ?? ''
  const tag = intlLocales[locale ?? getLocale()]
  return new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`))
}
type Options = { locale?: Locale }

const texts: Record<NotificationType, (params: Params, options: Options) => string> = {
  invited: (p, o) => m.notification_invited({ organization: p.organization ?? '', inviter: p.inviter ?? '' }, o),
  // The stored role list ("member,admin") is read out as names in the reader's language, email included.
  role_changed: (p, o) =>
    m.notification_role_changed({ organization: p.organization ?? '', role: rolesLabel(p.role ?? '', o.locale) }, o),
  removed: (p, o) => m.notification_removed({ organization: p.organization ?? '' }, o),
  payment_failed: (p, o) => m.notification_payment_failed({ organization: p.organization ?? '' }, o),
  subscription_ending: (p, o) =>
    m.notification_subscription_ending({ organization: p.organization ?? '', date: localDay(p.date, o.locale) }, o),
  import_finished: (p, o) => m.notification_import_finished({ count: p.count ?? '0' }, o),
  import_failed: (p, o) => m.notification_import_failed({ count: p.count ?? '0' }, o),
  assistant_book_created: (p, o) => m.notification_assistant_book_created({ title: p.title ?? '' }, o),
  webhook_disabled: (p, o) => m.notification_webhook_disabled({ url: p.url ?? '' }, o),
}

/** A notification as a sentence, in the page's language or `locale` (an email). */
export function notificationText(type: string, params: Params, locale?: Locale): string {
  const text = Object.hasOwn(texts, type) ? texts[type as NotificationType] : undefined
  return text ? text(params, locale ? { locale } : {}) : type
}
