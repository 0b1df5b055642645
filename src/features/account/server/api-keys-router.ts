import { and, eq, lt } from 'drizzle-orm'
import { apiKeys } from '#/server/db/schema'
import { createRouter, protectedProcedure } from '#/server/trpc/init'

export const apiKeysRouter = createRouter({
  /**
   * Deletes the caller's expired keys and says how many. Better Auth's own POST /api-key/delete-all-expired-api-keys
   * is server-only and sweeps every user's keys; this one touches only the caller's.
   */
  deleteExpired: protectedProcedure.mutation(async ({ ctx }) => {
    const deleted = await ctx.db
      .delete(apiKeys)
      .where(and(eq(apiKeys.referenceId, ctx.user.id), lt(apiKeys.expiresAt, new Date())))
      .returning({ id: apiKeys.id })
    return { deleted: deleted.length }
  }),
})
