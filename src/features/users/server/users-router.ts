import { deleteAccountWithHandOver } from '#/features/organizations/server'
import type { Locale } from '#/lib/i18n'
import { type AuditAction, recordAudit } from '#/server/audit-log'
import { authForDatabase } from '#/server/auth/auth'
import { betterAuthCall } from '#/server/auth/better-auth-call'
import type { Database } from '#/server/db/client'
import { getEnv } from '#/server/env'
import { OrganizationDeletionRefused } from '#/server/organization-deletion'
import { localeOfRequest } from '#/server/request-locale'
import { AppError, adminProcedure, createRouter, isAppAdmin } from '#/server/trpc/init'
import {
  banSeconds,
  banUserInput,
  createUserInput,
  revokeSessionInput,
  setPasswordInput,
  setRoleInput,
  userFilters,
  userIdInput,
  userListInput,
} from '../schemas'
import { countAppAdmins, countUsers, findUser, listUsers, sessionTokenOf, userDetails } from './user-queries'

async function targetOf(db: Database, userId: string) {
  const user = await findUser(db, userId)
  if (!user) throw new AppError({ code: 'NOT_FOUND', appCode: 'USER_NOT_FOUND', message: 'User not found' })
  return user
}

/**
 * A server-side call for an email to someone else: without the admin's session (the endpoint would otherwise act on
 * the admin), but from the admin's page, so the email is in the language the admin works in.
 */
function emailRequest(locale: Locale): Request {
  return new Request(`${getEnv().APP_URL}/api/auth`, {
    headers: { referer: `${getEnv().APP_URL}/${locale}/console/users` },
  })
}

/** App admins manage every account here; each change is recorded in the audit log. */
export const usersRouter = createRouter({
  list: adminProcedure.input(userListInput).query(({ ctx, input }) => listUsers(ctx.db, input)),

  count: adminProcedure.input(userFilters.partial()).query(({ ctx, input }) => countUsers(ctx.db, input)),

  get: adminProcedure.input(userIdInput).query(async ({ ctx, input }) => {
    const user = await targetOf(ctx.db, input.userId)
    return { user, ...(await userDetails(ctx.db, user.id)), isSelf: user.id === ctx.user.id }
  }),

  create: adminProcedure.input(createUserInput).mutation(async ({ ctx, input }) => {
    const auth = authForDatabase(ctx.db)
    const { user } = await betterAuthCall(() =>
      auth.api.createUser({
        headers: ctx.headers,
        body: {
          name: input.name,
          email: input.email,
          role: input.role,
          ...(input.password ? { password: input.password } : {}),
        },
      }),
    )
    const target = { id: user.id, name: user.name, email: user.email }
    await recordAudit(ctx.db, { actor: ctx.user, action: 'user_created', target, details: { role: input.role } })
    if (!input.password) {
      // No password yet: the email's link lets the person choose one (the reset page, worded as a first password).
      await sendPasswordEmail(ctx.db, ctx.headers, target.email)
      await recordAudit(ctx.db, { actor: ctx.user, action: 'password_email_sent', target })
    }
    return { id: user.id }
  }),

  setRole: adminProcedure.input(setRoleInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    if (isAppAdmin(target) && input.role !== 'admin' && (await countAppAdmins(ctx.db)) <= 1) {
      throw new AppError({
        code: 'BAD_REQUEST',
        appCode: 'LAST_APP_ADMIN',
        message: 'The last app admin cannot lose the role',
      })
    }
    await betterAuthCall(() =>
      authForDatabase(ctx.db).api.setRole({
        headers: ctx.headers,
        body: { userId: input.userId, role: input.role },
      }),
    )
    await record(ctx, 'role_changed', target, { from: target.role, to: input.role })
  }),

  ban: adminProcedure.input(banUserInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    // Better Auth ends every session of the user at once (on every server: sessions live in the shared store).
    await betterAuthCall(() =>
      authForDatabase(ctx.db).api.banUser({
        headers: ctx.headers,
        body: { userId: input.userId, banReason: input.reason, banExpiresIn: banSeconds[input.duration] },
      }),
    )
    await record(ctx, 'user_banned', target, { reason: input.reason, duration: input.duration })
  }),

  unban: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    await betterAuthCall(() =>
      authForDatabase(ctx.db).api.unbanUser({ headers: ctx.headers, body: { userId: input.userId } }),
    )
    await record(ctx, 'user_unbanned', target)
  }),

  setPassword: adminProcedure.input(setPasswordInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    await betterAuthCall(() =>
      authForDatabase(ctx.db).api.setUserPassword({
        headers: ctx.headers,
        body: { userId: input.userId, newPassword: input.newPassword },
      }),
    )
    await record(ctx, 'password_set', target)
  }),

  revokeSession: adminProcedure.input(revokeSessionInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    const sessionToken = await sessionTokenOf(ctx.db, input.userId, input.sessionId)
    if (!sessionToken) {
      throw new AppError({ code: 'NOT_FOUND', appCode: 'SESSION_NOT_FOUND', message: 'This session has ended' })
    }
    await betterAuthCall(() =>
      authForDatabase(ctx.db).api.revokeUserSession({ headers: ctx.headers, body: { sessionToken } }),
    )
    await record(ctx, 'session_revoked', target)
  }),

  revokeAllSessions: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    await betterAuthCall(() =>
      authForDatabase(ctx.db).api.revokeUserSessions({ headers: ctx.headers, body: { userId: input.userId } }),
    )
    await record(ctx, 'sessions_revoked', target)
  }),

  sendVerificationEmail: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    if (target.emailVerified || target.isAnonymous) {
      throw new AppError({
        code: 'BAD_REQUEST',
        appCode: 'EMAIL_ALREADY_VERIFIED',
        message: 'This address is already verified',
      })
    }
    const locale = adminLocale(ctx.headers)
    await betterAuthCall(() =>
      authForDatabase(ctx.db).api.sendVerificationEmail({
        request: emailRequest(locale),
        body: { email: target.email, callbackURL: `/${locale}/verify-email` },
      }),
    )
    await record(ctx, 'verification_email_sent', target)
  }),

  sendPasswordEmail: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    if (target.isAnonymous) {
      throw new AppError({ code: 'BAD_REQUEST', appCode: 'USER_IS_GUEST', message: 'A guest has no email address' })
    }
    await sendPasswordEmail(ctx.db, ctx.headers, target.email)
    await record(ctx, 'password_email_sent', target)
  }),

  remove: adminProcedure.input(userIdInput).mutation(async ({ ctx, input }) => {
    const target = await targetOf(ctx.db, input.userId)
    if (target.id === ctx.user.id) {
      throw new AppError({
        code: 'BAD_REQUEST',
        appCode: 'YOU_CANNOT_REMOVE_YOURSELF',
        message: 'Delete your own account from the Account page',
      })
    }
    try {
      await deleteAccountWithHandOver(ctx.db, target.id, ctx.user)
    } catch (error) {
      if (!(error instanceof OrganizationDeletionRefused)) throw error
      throw new AppError({ code: 'CONFLICT', appCode: error.code, message: error.message })
    }
    // The database rows went with the account; sessions kept in Redis (when configured) are ended here too.
    await (await authForDatabase(ctx.db).$context).internalAdapter.deleteUserSessions(target.id)
    await record(ctx, 'user_deleted', { ...target, id: null })
  }),
})

function record(
  ctx: { db: Database; user: { id: string; name: string } },
  action: AuditAction,
  target: { id: string | null; name: string; email: string },
  details?: Record<string, string>,
) {
  return recordAudit(ctx.db, { actor: ctx.user, action, target, details })
}

/** The language the admin works in (the page that sent the call), for emails sent on someone's behalf. */
function adminLocale(headers: Headers): Locale {
  return localeOfRequest(new Request(getEnv().APP_URL, { headers }))
}

async function sendPasswordEmail(db: Database, headers: Headers, email: string) {
  const locale = adminLocale(headers)
  await betterAuthCall(() =>
    authForDatabase(db).api.requestPasswordReset({
      request: emailRequest(locale),
      body: { email, redirectTo: `${getEnv().APP_URL}/${locale}/reset-password` },
    }),
  )
}
