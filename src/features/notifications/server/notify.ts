import { randomBytes } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { type Locale, locales } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import type { Database } from '#/server/db/client'
import { notificationSettings, notifications, users } from '#/server/db/schema'
import { sendEmail } from '#/server/email/mailer'
import { actionEmail } from '#/server/email/templates'
import { getEnv } from '#/server/env'
import { publishLiveUpdate } from '#/server/live-updates'
import { log } from '#/server/log'
import type { Notice } from '#/server/organization-events'
import { getSiteSettings } from '#/server/settings'
import { notificationText } from '../notification-text'
import { defaultEmailTypes, isNotificationType, typesWithOwnEmail } from '../notification-types'

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
  const { type } = notice
  // A type nobody declared (src/lib/notice-kinds.ts) would be a bell entry nobody can read.
  if (!isNotificationType(type)) {
    log().error({ type }, 'a notification of an unknown type was not recorded')
    return
  }
  try {
    await db.insert(notifications).values(
      recipients.map((userId) => ({
        id: `ntf_${randomBytes(12).toString('base64url')}`,
        userId,
        organizationId: notice.organizationId ?? null,
        type,
        params: notice.params ?? {},
        link: notice.link ?? null,
      })),
    )
    for (const userId of recipients) await publishLiveUpdate({ userId, topic: 'notifications' })
    if (!typesWithOwnEmail.includes(type)) await emailThoseWhoAsked(db, recipients, { ...notice, type })
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
