import { randomBytes } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { type Locale, locales } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import type { Database } from '#/server/db/client'
import { members, notificationSettings, notifications, users } from '#/server/db/schema'
import { sendEmail } from '#/server/email/mailer'
import { actionEmail } from '#/server/email/templates'
import { getEnv } from '#/server/env'
import { publishLiveUpdate } from '#/server/live-updates'
import { log } from '#/server/log'
import { getSiteSettings } from '#/server/settings'
import { notificationText } from '../notification-text'
import { defaultEmailTypes, type NotificationType, typesWithOwnEmail } from '../notification-types'

export interface Notice {
  type: NotificationType
  organizationId?: string | null
  params?: Record<string, string>
  /** A path inside the app without the language, e.g. `/console/books/abc`. */
  link?: string | null
}

const asLocale = (value: string | undefined): Locale =>
  value && (locales as readonly string[]).includes(value) ? (value as Locale) : 'en'

/**
 * Tells people something: a row in each one's bell, a live update to every page they have open (on any server), and
 * an email to those who chose one for this type, in their language. Never throws: a notification is a courtesy, and
 * the change it reports has already happened.
 */
export async function notify(db: Database, userIds: readonly string[], notice: Notice): Promise<void> {
  const recipients = [...new Set(userIds)].filter(Boolean)
  if (recipients.length === 0) return
  try {
    await db.insert(notifications).values(
      recipients.map((userId) => ({
        id: `ntf_${randomBytes(12).toString('base64url')}`,
        userId,
        organizationId: notice.organizationId ?? null,
        type: notice.type,
        params: notice.params ?? {},
        link: notice.link ?? null,
      })),
    )
    for (const userId of recipients) await publishLiveUpdate({ userId, topic: 'notifications' })
    if (!typesWithOwnEmail.includes(notice.type)) await emailThoseWhoAsked(db, recipients, notice)
  } catch (error) {
    log().error({ err: error, type: notice.type }, 'a notification was not recorded')
  }
}

async function emailThoseWhoAsked(db: Database, userIds: string[], notice: Notice) {
  const people = await db
    .select({
      email: users.email,
      name: users.name,
      locale: notificationSettings.locale,
      emailTypes: notificationSettings.emailTypes,
    })
    .from(users)
    .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
    .where(and(inArray(users.id, userIds), eq(users.isAnonymous, false)))
  const { productName } = await getSiteSettings(db)
  for (const person of people) {
    const wanted = person.emailTypes ?? defaultEmailTypes
    if (!wanted.includes(notice.type)) continue
    const locale = asLocale(person.locale ?? undefined)
    const text = notificationText(notice.type, notice.params ?? {}, locale)
    await sendEmail(
      db,
      actionEmail({
        to: person.email,
        subject: `${productName}: ${text}`,
        greeting: m.email_greeting({ name: person.name }, { locale }),
        body: text,
        action: m.notification_email_action({}, { locale }),
        url: `${getEnv().APP_URL}/${locale}${notice.link ?? '/console'}`,
        footer: m.notification_email_footer({ product: productName }, { locale }),
      }),
    )
  }
}

/** The members of an organization holding one of `roles` (owner, admin): who hears about its billing and webhooks. */
export async function membersWithRoles(db: Database, organizationId: string, roles: readonly string[]) {
  const rows = await db
    .select({ userId: members.userId })
    .from(members)
    .where(
      and(
        eq(members.organizationId, organizationId),
        sql`string_to_array(replace(${members.role}, ' ', ''), ',') && ${sql.raw(`array[${roles.map((role) => `'${role.replace(/'/g, '')}'`).join(',')}]`)}`,
      ),
    )
  return rows.map((row) => row.userId)
}

/** Keeps the language of the person's emails: the one their console is in (sent as they open it). */
export async function rememberLanguage(db: Database, userId: string, locale: Locale): Promise<void> {
  await db
    .insert(notificationSettings)
    .values({ userId, locale, emailTypes: [...defaultEmailTypes] })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: { locale },
      setWhere: sql`${notificationSettings.locale} <> ${locale}`,
    })
}
