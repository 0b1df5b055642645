import { createRouter, protectedProcedure } from '#/server/trpc/init'

export const accountRouter = createRouter({
  /** The signed-in user (by session cookie or API key); nothing about any other user. */
  me: protectedProcedure.query(({ ctx }) => ({
    id: ctx.user.id,
    name: ctx.user.name,
    email: ctx.user.email,
    emailVerified: ctx.user.emailVerified,
    image: ctx.user.image ?? null,
    createdAt: ctx.user.createdAt,
  })),
})
