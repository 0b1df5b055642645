import { and, eq, gte, notExists, sql } from 'drizzle-orm'
import { type Locale, locales } from '#/lib/i18n'
import type { Database } from '#/server/db/client'
import { members, users, webhookAttempts, webhookDeliveries, webhookEndpoints } from '#/server/db/schema'
import { sendEmail } from '#/server/email/mailer'
import { getEnv } from '#/server/env'
import { log } from '#/server/log'
import { membersWithRoles, notify } from '#/server/organization-events'
import { getSiteSettings } from '#/server/settings'
import { webhookDisabledEmail } from './webhook-emails'

/**
 * Switches an endpoint off when nothing reached it since `since` (the first attempt of a delivery that has now used
 * every retry, about a day): a receiver that is gone stops costing a day of retries per event. Its pending
 * deliveries are then skipped; the owners and admins get an email saying so, with a link to switch it on again.
 */
export async function switchOffIfFailingSince(db: Database, endpointId: string, since: Date): Promise<void> {
  const reachedSince = db
    .select({ one: sql`1` })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookAttempts.outcome, 'delivered'),
        gte(webhookAttempts.attemptedAt, since),
      ),
    )
  const [switchedOff] = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: 'failing', updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true), notExists(reachedSince)))
    .returning()
  if (!switchedOff) return
  log().warn({ endpointId, organizationId: switchedOff.organizationId }, 'a failing webhook endpoint was switched off')
  const recipients = await db
    .selectDistinct({ email: users.email, name: users.name })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(
      and(
        eq(members.organizationId, switchedOff.organizationId),
        sql`string_to_array(replace(${members.role}, ' ', ''), ',') && array['owner', 'admin']`,
      ),
    )
  await notify(db, await membersWithRoles(db, switchedOff.organizationId, ['owner', 'admin']), {
    type: 'webhook_disabled',
    organizationId: switchedOff.organizationId,
    params: { url: switchedOff.url },
    link: `/console/organization/webhooks?endpoint=${encodeURIComponent(switchedOff.id)}`,
  })
  const locale = (locales as readonly string[]).includes(switchedOff.locale) ? (switchedOff.locale as Locale) : 'en'
  const { productName } = await getSiteSettings(db)
  for (const recipient of recipients) {
    await sendEmail(
      db,
      webhookDisabledEmail({
        to: recipient.email,
        name: recipient.name,
        endpointUrl: switchedOff.url,
        url: `${getEnv().APP_URL}/${locale}/console/organization/webhooks?endpoint=${encodeURIComponent(switchedOff.id)}`,
        product: productName,
        locale,
      }),
    )
  }
}
