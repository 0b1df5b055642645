import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm'
import { notificationSettings, notifications } from '#/server/db/schema'
import { publishLiveUpdate } from '#/server/live-updates'
import { createRouter, protectedProcedure } from '#/server/trpc/init'
import { defaultEmailTypes, notificationTypes } from '../notification-types'
import { markNotificationsReadInput, notificationSettingsInput } from '../schemas'

/** How many notifications the bell lists (the newest); older ones stay until their organization or account goes. */
export const bellSize = 30

export const notificationsRouter = createRouter({
  /**
   * The caller's newest notifications and how many are unread: only their own, whichever organization is active, and
   * only of kinds still declared (an app's are left out once it is removed: nothing here could say what they mean).
   */
  list: protectedProcedure.query(async ({ ctx }) => {
    const mine = and(eq(notifications.userId, ctx.user.id), inArray(notifications.type, [...notificationTypes]))
    const [items, [unread]] = await Promise.all([
      ctx.db
        .select({
          id: notifications.id,
          type: notifications.type,
          params: notifications.params,
          link: notifications.link,
          readAt: notifications.readAt,
          createdAt: notifications.createdAt,
        })
        .from(notifications)
        .where(mine)
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(bellSize),
      ctx.db
        .select({ count: count() })
        .from(notifications)
        .where(and(mine, isNull(notifications.readAt))),
    ])
    return { items, unread: unread?.count ?? 0 }
  }),

  /** Marks some of the caller's notifications read (ids of anyone else's change nothing). */
  markRead: protectedProcedure.input(markNotificationsReadInput).mutation(async ({ ctx, input }) => {
    const marked = await ctx.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(
        and(eq(notifications.userId, ctx.user.id), inArray(notifications.id, input.ids), isNull(notifications.readAt)),
      )
      .returning({ id: notifications.id })
    if (marked.length > 0) await publishLiveUpdate({ userId: ctx.user.id, topic: 'notifications' })
    return { marked: marked.length }
  }),

  markAllRead: protectedProcedure.mutation(async ({ ctx }) => {
    const marked = await ctx.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.userId, ctx.user.id), isNull(notifications.readAt)))
      .returning({ id: notifications.id })
    // The caller's other tabs and devices clear their count too.
    if (marked.length > 0) await publishLiveUpdate({ userId: ctx.user.id, topic: 'notifications' })
    return { marked: marked.length }
  }),

  /** Which notifications also come by email (a new account: the defaults). */
  settings: protectedProcedure.query(async ({ ctx }) => {
    const [row] = await ctx.db
      .select({ emailTypes: notificationSettings.emailTypes })
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, ctx.user.id))
    return { emailTypes: row?.emailTypes ?? [...defaultEmailTypes] }
  }),

  updateSettings: protectedProcedure.input(notificationSettingsInput).mutation(async ({ ctx, input }) => {
    const values = { emailTypes: input.emailTypes, locale: input.locale, updatedAt: new Date() }
    await ctx.db
      .insert(notificationSettings)
      .values({ userId: ctx.user.id, ...values })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: values })
    return { emailTypes: input.emailTypes }
  }),
})
