import { createHash } from 'node:crypto'
import { APIError } from 'better-auth/api'
import { jsonRefusal, sameOriginRequest } from '#/server/ai/answers'
import { authForDatabase } from '#/server/auth/auth'
import type { Database } from '#/server/db/client'
import { getEnv } from '#/server/env'
import { fileStorage } from '#/server/files/configured-storage'
import { squareWebpImages } from '#/server/files/images'
import { readBodyBytes } from '#/server/request-body'
import { inLocale, localeOfRequest } from '#/server/request-locale'
import { avatarBytesMax, avatarSizes } from '../avatar-rules'

async function signedInUserId(request: Request, db: Database): Promise<string | null> {
  try {
    const session = await authForDatabase(db).api.getSession({
      headers: new Headers({ cookie: request.headers.get('cookie') ?? '' }),
      query: { disableCookieCache: true },
    })
    return session?.user.id ?? null
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return null
    throw error
  }
}

const avatarPrefix = (userId: string) => `avatars/${userId}`

/**
 * `POST /api/uploads/avatar` (the picture's bytes as the body) and `DELETE` (back to initials), for the signed-in
 * person, from this site's pages. The bytes must be an image (checked by their content, never the declared type) and
 * are stored as square WebP images in two sizes; the old picture's files go. The answer is the new picture's URL.
 */
export async function answerAvatarUpload(request: Request, db: Database): Promise<Response> {
  const origin = new URL(request.url).origin
  const locale = localeOfRequest(request)
  return inLocale(locale, origin, async () => {
    if (!sameOriginRequest(request, getEnv().trustedOrigins)) return jsonRefusal(403, 'FORBIDDEN')
    const userId = await signedInUserId(request, db)
    if (!userId) return jsonRefusal(401, 'UNAUTHORIZED')
    const storage = fileStorage()
    if (request.method === 'DELETE') {
      await storage.deletePrefix(avatarPrefix(userId))
      return savedPicture(request, db, null)
    }
    const bytes = await readBodyBytes(request, avatarBytesMax)
    if (bytes === 'too-large') return jsonRefusal(413, 'FILE_TOO_LARGE')
    const converted = await squareWebpImages(bytes, avatarSizes)
    if (!converted.ok) return jsonRefusal(400, 'IMAGE_NOT_ACCEPTED')
    const largest = converted.images.get(256) as Uint8Array
    const name = createHash('sha256').update(largest).digest('hex').slice(0, 16)
    await storage.deletePrefix(avatarPrefix(userId))
    for (const [size, image] of converted.images) {
      await storage.put(`${avatarPrefix(userId)}/${name}-${size}.webp`, image, 'image/webp')
    }
    return savedPicture(request, db, `${getEnv().APP_URL}/api/files/${avatarPrefix(userId)}/${name}-256.webp`)
  })
}

/**
 * Sets the picture through Better Auth, whose answer carries the browser's refreshed session copy: the console shows
 * the new picture at once rather than when that copy lapses.
 */
async function savedPicture(request: Request, db: Database, image: string | null): Promise<Response> {
  const { headers } = await authForDatabase(db).api.updateUser({
    body: { image },
    headers: new Headers({ cookie: request.headers.get('cookie') ?? '' }),
    returnHeaders: true,
  })
  const answer = Response.json({ image }, { headers: { 'cache-control': 'no-store' } })
  for (const cookie of headers.getSetCookie()) answer.headers.append('set-cookie', cookie)
  return answer
}
