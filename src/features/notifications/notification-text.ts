import type { Locale } from '#/lib/i18n'
import { noticeKindOf } from './notification-types'

/** A notification as a sentence, in the page's language or `locale` (an email); an unknown type shows as itself. */
export function notificationText(type: string, params: Record<string, string>, locale?: Locale): string {
  const kind = noticeKindOf(type)
  return kind ? kind.text(params, locale ? { locale } : {}) : type
}
