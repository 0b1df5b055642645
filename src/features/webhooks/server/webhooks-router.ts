import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Database } from '#/server/db/client'
import { users, webhookAttempts, webhookDeliveries, webhookEndpoints } from '#/server/db/schema'
import { getEnv } from '#/server/env'
import { checkWebhookDestination } from '#/server/outbound/destination'
import { AppError, createRouter, isAppAdmin, orgProcedure } from '#/server/trpc/init'
import { webhookLimits } from '../events'
import {
  createWebhookEndpointInput,
  updateWebhookEndpointInput,
  webhookDeliveriesInput,
  webhookDeliveryIdInput,
  webhookEndpointIdInput,
} from '../schemas'
import { newWebhookSecret } from './delivery'
import { nextAttemptTimes } from './next-attempt'
import { queueTestEvent } from './test-event'
import { attemptDelivery, newMessageId } from './webhook-deliveries'

const endpointNotFound = () =>
  new AppError({ code: 'NOT_FOUND', appCode: 'WEBHOOK_NOT_FOUND', message: 'This webhook endpoint does not exist' })

/**
 * The URL an endpoint is saved with must resolve, and only to public addresses (unless WEBHOOKS_ALLOW_PRIVATE). A
 * refused private address tells those who run the server (app admins, anyone on a development server) which variable
 * allows local receivers; an organization admin elsewhere is only told that the address is private.
 */
async function requireSafeDestination(db: Database, url: string, userId: string): Promise<void> {
  const env = getEnv()
  const checked = await checkWebhookDestination(url, { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE })
  if (checked.ok) return
  let message = 'validation_webhook_url_invalid'
  if (checked.reason === 'not-resolved') message = 'validation_webhook_url_unresolved'
  if (checked.reason === 'private-address') {
    // The role as stored now, not the session's copy: who is told about the server's settings follows the database.
    const [current] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId))
    const operator = env.NODE_ENV === 'development' || isAppAdmin({ role: current?.role })
    message = operator ? 'validation_webhook_url_private_allow' : 'validation_webhook_url_private'
  }
  throw new AppError({ code: 'BAD_REQUEST', appCode: 'BAD_REQUEST', message, field: 'url' })
}

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  events: webhookEndpoints.events,
  enabled: webhookEndpoints.enabled,
  disabledReason: webhookEndpoints.disabledReason,
  failingSince: webhookEndpoints.failingSince,
  createdAt: webhookEndpoints.createdAt,
}

export const webhooksRouter = createRouter({
  /** The organization's endpoints (never their secrets), with how their deliveries of the last day went. */
  list: orgProcedure({ webhook: ['read'] }).query(async ({ ctx }) => {
    const endpoints = await ctx.db
      .select(endpointColumns)
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organizationId, ctx.organization.id))
      .orderBy(webhookEndpoints.createdAt)
    if (endpoints.length === 0) return []
    const recent = await ctx.db
      .select({ endpointId: webhookDeliveries.endpointId, status: webhookDeliveries.status, count: count() })
      .from(webhookDeliveries)
      .where(
        and(
          inArray(
            webhookDeliveries.endpointId,
            endpoints.map((endpoint) => endpoint.id),
          ),
          sql`${webhookDeliveries.createdAt} > now() - interval '1 day'`,
        ),
      )
      .groupBy(webhookDeliveries.endpointId, webhookDeliveries.status)
    return endpoints.map((endpoint) => {
      const tally = { pending: 0, delivered: 0, failed: 0, skipped: 0 }
      for (const row of recent) {
        if (row.endpointId === endpoint.id && row.status in tally) tally[row.status as keyof typeof tally] = row.count
      }
      return { ...endpoint, lastDay: tally }
    })
  }),

  /** Adds an endpoint; the answer carries its signing secret, which is never shown again. */
  create: orgProcedure({ webhook: ['manage'] })
    .input(createWebhookEndpointInput)
    .mutation(async ({ ctx, input }) => {
      const [existing] = await ctx.db
        .select({ count: count() })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.organizationId, ctx.organization.id))
      if ((existing?.count ?? 0) >= webhookLimits.endpointsMax) {
        throw new AppError({
          code: 'BAD_REQUEST',
          appCode: 'WEBHOOK_LIMIT',
          message: 'This organization has as many webhook endpoints as it may',
          params: { limit: String(webhookLimits.endpointsMax) },
        })
      }
      await requireSafeDestination(ctx.db, input.url, ctx.user.id)
      const secret = newWebhookSecret()
      const id = `we_${newMessageId().slice(4)}`
      await ctx.db.insert(webhookEndpoints).values({
        id,
        organizationId: ctx.organization.id,
        url: input.url,
        description: input.description,
        events: input.events,
        secret,
        locale: input.locale,
        createdById: ctx.user.id,
      })
      return { id, secret }
    }),

  /** Changes an endpoint's URL, description or events, or switches it on or off. */
  update: orgProcedure({ webhook: ['manage'] })
    .input(updateWebhookEndpointInput)
    .mutation(async ({ ctx, input }) => {
      const [existing] = await ctx.db
        .select({ id: webhookEndpoints.id, url: webhookEndpoints.url })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, input.id), eq(webhookEndpoints.organizationId, ctx.organization.id)))
      if (!existing) throw endpointNotFound()
      const changes = input.endpoint ?? {}
      if (changes.url !== undefined && changes.url !== existing.url)
        await requireSafeDestination(ctx.db, changes.url, ctx.user.id)
      const switching =
        input.enabled === undefined
          ? {}
          : input.enabled
            ? // Switched on again: its failures so far no longer count towards switching it off.
              { enabled: true, disabledReason: null, failingSince: null }
            : { enabled: false, disabledReason: 'manual' }
      const [updated] = await ctx.db
        .update(webhookEndpoints)
        .set({ ...changes, ...switching, updatedAt: new Date() })
        .where(eq(webhookEndpoints.id, existing.id))
        .returning(endpointColumns)
      if (!updated) throw endpointNotFound()
      return updated
    }),

  /** "Send test event": a signed `webhook.test` delivery through the queue, shown in the log like any other. */
  sendTest: orgProcedure({ webhook: ['manage'] })
    .input(webhookEndpointIdInput)
    .mutation(async ({ ctx, input }) => {
      const [endpoint] = await ctx.db
        .select({
          id: webhookEndpoints.id,
          organizationId: webhookEndpoints.organizationId,
          enabled: webhookEndpoints.enabled,
        })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, input.id), eq(webhookEndpoints.organizationId, ctx.organization.id)))
      if (!endpoint) throw endpointNotFound()
      // A switched-off endpoint is sent nothing, a test included: the delivery would only be logged as not sent.
      if (!endpoint.enabled) {
        throw new AppError({
          code: 'CONFLICT',
          appCode: 'WEBHOOK_ENDPOINT_OFF',
          message: 'This endpoint is switched off; switch it on to send it a test event',
        })
      }
      return queueTestEvent(ctx.db, endpoint)
    }),

  /** Deletes an endpoint with its delivery log; nothing more is sent to it. */
  delete: orgProcedure({ webhook: ['manage'] })
    .input(webhookEndpointIdInput)
    .mutation(async ({ ctx, input }) => {
      const [deleted] = await ctx.db
        .delete(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, input.id), eq(webhookEndpoints.organizationId, ctx.organization.id)))
        .returning({ id: webhookEndpoints.id })
      if (!deleted) throw endpointNotFound()
      return deleted
    }),

  /** A new signing secret, shown once; deliveries from now on are signed with it. */
  rotateSecret: orgProcedure({ webhook: ['manage'] })
    .input(webhookEndpointIdInput)
    .mutation(async ({ ctx, input }) => {
      const secret = newWebhookSecret()
      const [rotated] = await ctx.db
        .update(webhookEndpoints)
        .set({ secret, updatedAt: new Date() })
        .where(and(eq(webhookEndpoints.id, input.id), eq(webhookEndpoints.organizationId, ctx.organization.id)))
        .returning({ id: webhookEndpoints.id })
      if (!rotated) throw endpointNotFound()
      return { id: rotated.id, secret }
    }),

  /** One page of an endpoint's delivery log, newest first, each delivery with its attempts. */
  deliveries: orgProcedure({ webhook: ['read'] })
    .input(webhookDeliveriesInput)
    .query(async ({ ctx, input }) => {
      const [endpoint] = await ctx.db
        .select(endpointColumns)
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, input.endpointId), eq(webhookEndpoints.organizationId, ctx.organization.id)))
      if (!endpoint) throw endpointNotFound()
      const where = and(
        eq(webhookDeliveries.endpointId, endpoint.id),
        input.status ? eq(webhookDeliveries.status, input.status) : undefined,
      )
      const [total] = await ctx.db.select({ count: count() }).from(webhookDeliveries).where(where)
      const deliveries = await ctx.db
        .select({
          id: webhookDeliveries.id,
          eventType: webhookDeliveries.eventType,
          payload: webhookDeliveries.payload,
          status: webhookDeliveries.status,
          attempts: webhookDeliveries.attempts,
          createdAt: webhookDeliveries.createdAt,
          lastAttemptAt: webhookDeliveries.lastAttemptAt,
        })
        .from(webhookDeliveries)
        .where(where)
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(input.size)
        .offset((input.page - 1) * input.size)
      const attempts =
        deliveries.length === 0
          ? []
          : await ctx.db
              .select({
                deliveryId: webhookAttempts.deliveryId,
                attemptedAt: webhookAttempts.attemptedAt,
                outcome: webhookAttempts.outcome,
                status: webhookAttempts.status,
                durationMs: webhookAttempts.durationMs,
                responseExcerpt: webhookAttempts.responseExcerpt,
                requestUrl: webhookAttempts.requestUrl,
                requestHeaders: webhookAttempts.requestHeaders,
                requestBody: webhookAttempts.requestBody,
                responseHeaders: webhookAttempts.responseHeaders,
              })
              .from(webhookAttempts)
              .where(
                inArray(
                  webhookAttempts.deliveryId,
                  deliveries.map((delivery) => delivery.id),
                ),
              )
              .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.id))
      const totalCount = total?.count ?? 0
      const nextAttempts = await nextAttemptTimes(
        ctx.db,
        deliveries.filter((delivery) => delivery.status === 'pending').map((delivery) => delivery.id),
      )
      return {
        endpoint,
        total: totalCount,
        deliveries: deliveries.map((delivery) => ({
          ...delivery,
          payload: JSON.stringify(delivery.payload, null, 2),
          attemptLog: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
          nextAttemptAt: nextAttempts.get(delivery.id) ?? null,
        })),
      }
    }),

  /** "Send again": one more attempt now, whatever the delivery's state; the answer says how it went. */
  resend: orgProcedure({ webhook: ['manage'] })
    .input(webhookDeliveryIdInput)
    .mutation(async ({ ctx, input }) => {
      const [delivery] = await ctx.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, input.id), eq(webhookDeliveries.organizationId, ctx.organization.id)))
      if (!delivery) {
        throw new AppError({
          code: 'NOT_FOUND',
          appCode: 'WEBHOOK_DELIVERY_NOT_FOUND',
          message: 'This delivery does not exist',
        })
      }
      const { result, outcome } = await attemptDelivery(ctx.db, delivery.id, { last: false, manual: true })
      if (result === 'not-pending') {
        throw new AppError({
          code: 'CONFLICT',
          appCode: 'WEBHOOK_DELIVERY_BUSY',
          message: 'This delivery is being sent right now',
        })
      }
      return {
        delivered: result === 'delivered',
        status: outcome?.status ?? null,
        failure: outcome && !outcome.delivered ? outcome.failure : null,
      }
    }),
})
