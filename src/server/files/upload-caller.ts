import { APIError } from 'better-auth/api'
import type { Permissions } from '#/lib/access-control'
import { translateAppError } from '#/lib/errors'
import { jsonRefusal, sameOriginRequest } from '#/server/ai/answers'
import { authForDatabase } from '#/server/auth/auth'
import { accessAllows, loadOrganizationAccess, type OrganizationAccess } from '#/server/auth/organization-access'
import type { Database } from '#/server/db/client'
import { getEnv } from '#/server/env'
import { consumeRateLimit } from '#/server/rate-limit'

/** Uploads (and removals) one person may send a minute, across all upload routes and app servers. */
export const uploadLimit = { limit: 60, windowMs: 60_000 }

export interface UploadCaller {
  userId: string
  activeOrganizationId: string | null
}

/**
 * Who sends an upload: a signed-in person, from this site's pages (session cookie only: an API key never uploads), or
 * the refusal to answer with.
 */
export async function uploadCaller(request: Request, db: Database): Promise<UploadCaller | Response> {
  if (!sameOriginRequest(request, getEnv().trustedOrigins)) return jsonRefusal(403, 'FORBIDDEN')
  try {
    const session = await authForDatabase(db).api.getSession({
      headers: new Headers({ cookie: request.headers.get('cookie') ?? '' }),
      query: { disableCookieCache: true },
    })
    if (!session) return jsonRefusal(401, 'UNAUTHORIZED')
    // Decoding and resizing images is the heaviest work a request can ask for: a person gets so many a minute.
    const rate = await consumeRateLimit(db, `uploads:${session.user.id}`, uploadLimit)
    if (!rate.allowed) {
      return jsonRefusal(429, 'TOO_MANY_REQUESTS', undefined, { 'Retry-After': String(rate.retryAfterSeconds) })
    }
    const activeOrganizationId =
      (session.session as { activeOrganizationId?: string | null }).activeOrganizationId ?? null
    return { userId: session.user.id, activeOrganizationId }
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return jsonRefusal(401, 'UNAUTHORIZED')
    throw error
  }
}

export interface OrganizationUploadCaller extends UploadCaller {
  organizationId: string
  access: OrganizationAccess
}

/** An upload into the active organization by one of its members who holds `required` (checked in the database). */
export async function organizationUploadCaller(
  request: Request,
  db: Database,
  required: Permissions,
): Promise<OrganizationUploadCaller | Response> {
  const caller = await uploadCaller(request, db)
  if (caller instanceof Response) return caller
  if (!caller.activeOrganizationId) return jsonRefusal(400, 'NO_ACTIVE_ORGANIZATION')
  const access = await loadOrganizationAccess(db, caller.userId, caller.activeOrganizationId)
  if (!access) return jsonRefusal(403, 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION')
  if (!accessAllows(access, required)) return notAllowed(required)
  return { ...caller, organizationId: caller.activeOrganizationId, access }
}

export function notAllowed(required: Permissions): Response {
  const resource = Object.keys(required)[0] ?? ''
  const message = translateAppError('NOT_ALLOWED_TO_ACCESS_RESOURCE', { resource })
  return jsonRefusal(403, 'NOT_ALLOWED_TO_ACCESS_RESOURCE', message, {}, { resource })
}
