import { getLocale, intlLocales, type Locale } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { m } from '#/paraglide/messages'

type Params = Record<string, string>
type Options = { locale?: Locale }

/**
 * Something people are told about (src/server/organization-events.ts `notify`): declared by whoever reports it, the
 * core here and each app in its `notices.ts`, so that an app's kinds leave with it. Whoever tells people (the
 * notifications app) reads them all through `allNoticeKinds`.
 */
export interface NoticeKind {
  /** What `notify` is given as the notice's `type`. */
  type: string
  /** The sentence, with the notice's values, in the page's language or `options.locale` (an email). */
  text: (params: Params, options: Options) => string
  /** Its name where people choose what also comes by email. */
  label: () => string
  /** Also sent by email to a new account: what needs the person even when they are away. */
  emailByDefault?: boolean
  /** Already sends its own email (an invitation): another one would say the same twice. */
  ownEmail?: boolean
}

export function defineNoticeKinds(kinds: readonly NoticeKind[]): readonly NoticeKind[] {
  return kinds
}

/** A day stored as `YYYY-MM-DD`, as people write it in the text's language. */
export function localDay(day: string | undefined, locale: Locale | undefined): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return day ?? ''
  const tag = intlLocales[locale ?? getLocale()]
  return new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`))
}

/** What the core reports: organizations' invitations and roles, billing's payments, a failed scheduled backup. */
export const coreNoticeKinds = defineNoticeKinds([
  {
    type: 'invited',
    text: (p, o) => m.notification_invited({ organization: p.organization ?? '', inviter: p.inviter ?? '' }, o),
    label: m.notifications_type_invited,
    emailByDefault: true,
    ownEmail: true,
  },
  {
    type: 'role_changed',
    // The stored role list ("member,admin") is read out as names in the reader's language, email included.
    text: (p, o) =>
      m.notification_role_changed({ organization: p.organization ?? '', role: rolesLabel(p.role ?? '', o.locale) }, o),
    label: m.notifications_type_role_changed,
  },
  {
    type: 'removed',
    text: (p, o) => m.notification_removed({ organization: p.organization ?? '' }, o),
    label: m.notifications_type_removed,
    emailByDefault: true,
  },
  {
    type: 'backup_failed',
    text: (p, o) => m.notification_backup_failed({ reason: p.reason ?? '' }, o),
    label: m.notifications_type_backup_failed,
    emailByDefault: true,
  },
  {
    type: 'payment_failed',
    text: (p, o) => m.notification_payment_failed({ organization: p.organization ?? '' }, o),
    label: m.notifications_type_payment_failed,
    emailByDefault: true,
  },
  {
    type: 'subscription_ending',
    text: (p, o) =>
      m.notification_subscription_ending({ organization: p.organization ?? '', date: localDay(p.date, o.locale) }, o),
    label: m.notifications_type_subscription_ending,
    emailByDefault: true,
  },
])
