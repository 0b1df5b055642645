import { consumeRateLimit } from '#/server/rate-limit'
import { createRouter, publicProcedure, tooManyRequests } from '#/server/trpc/init'
import { newsletterSubscription } from '../schemas'
import { newsletterSubscribers } from './schema'

const subscribeLimit = { limit: 5, windowMs: 10 * 60 * 1000 }

export const newsletterRouter = createRouter({
  /** Adds an address to the list. The answer is the same for a new and a known address, so it reveals nothing. */
  subscribe: publicProcedure.input(newsletterSubscription).mutation(async ({ ctx, input }) => {
    const rate = await consumeRateLimit(ctx.db, `newsletter:${ctx.clientIp}`, subscribeLimit)
    if (!rate.allowed) {
      throw tooManyRequests(
        rate.retryAfterSeconds,
        `Too many subscription attempts; try again in ${rate.retryAfterSeconds} s.`,
      )
    }
    await ctx.db
      .insert(newsletterSubscribers)
      .values({ email: input.email.toLowerCase(), locale: input.locale })
      .onConflictDoNothing()
    return { subscribed: true as const }
  }),
})
