import { createHash } from 'node:crypto'
import { jsonRefusal } from '#/server/ai/answers'
import { authForDatabase } from '#/server/auth/auth'
import type { Database } from '#/server/db/client'
import { getEnv } from '#/server/env'
import { fileStorage } from '#/server/files/configured-storage'
import { squareWebpImages } from '#/server/files/images'
import { organizationUploadCaller, uploadCaller } from '#/server/files/upload-caller'
import { readBodyBytes } from '#/server/request-body'
import { inLocale, localeOfRequest } from '#/server/request-locale'
import { avatarBytesMax, avatarSizes } from '../avatar-rules'

export const avatarFolder = (userId: string) => `avatars/${userId}`
export const logoFolder = (organizationId: string) => `logos/${organizationId}`

/**
 * Stores the picture in `folder` as square WebP images of each size, named by their hash (public and cached for
 * ever), after the old picture's files go; the answer is the largest one's URL. Null: the bytes are no image.
 */
async function storeSquarePicture(request: Request, folder: string): Promise<string | Response> {
  const bytes = await readBodyBytes(request, avatarBytesMax)
  if (bytes === 'too-large') return jsonRefusal(413, 'FILE_TOO_LARGE')
  const converted = await squareWebpImages(bytes, avatarSizes)
  if (!converted.ok) return jsonRefusal(400, 'IMAGE_NOT_ACCEPTED')
  const largest = converted.images.get(256) as Uint8Array
  const name = createHash('sha256').update(largest).digest('hex').slice(0, 16)
  const storage = fileStorage()
  await storage.deletePrefix(folder)
  for (const [size, image] of converted.images) await storage.put(`${folder}/${name}-${size}.webp`, image, 'image/webp')
  return `${getEnv().APP_URL}/api/files/${folder}/${name}-256.webp`
}

const inRequestLocale = (request: Request, answer: () => Promise<Response>) =>
  inLocale(localeOfRequest(request), new URL(request.url).origin, answer)

/**
 * `POST /api/uploads/avatar` (the picture's bytes as the body) and `DELETE` (back to initials), for the signed-in
 * person, from this site's pages. The bytes must be an image (checked by their content, never the declared type) and
 * are stored as square WebP images in two sizes; the old picture's files go. The answer is the new picture's URL.
 */
export function answerAvatarUpload(request: Request, db: Database): Promise<Response> {
  return inRequestLocale(request, async () => {
    const caller = await uploadCaller(request, db)
    if (caller instanceof Response) return caller
    const folder = avatarFolder(caller.userId)
    if (request.method === 'DELETE') {
      await fileStorage().deletePrefix(folder)
      return savedPicture(request, db, null)
    }
    const image = await storeSquarePicture(request, folder)
    return image instanceof Response ? image : savedPicture(request, db, image)
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

/**
 * `POST /api/uploads/organization-logo` and `DELETE`: the active organization's logo, by a member who may update the
 * organization; stored like a profile picture (public: the switcher and invitations show it) and set through Better
 * Auth, so the organization's hooks (activity log) see the change as they see the settings form's.
 */
export function answerLogoUpload(request: Request, db: Database): Promise<Response> {
  return inRequestLocale(request, async () => {
    const caller = await organizationUploadCaller(request, db, { organization: ['update'] })
    if (caller instanceof Response) return caller
    const folder = logoFolder(caller.organizationId)
    let logo: string | null = null
    if (request.method === 'DELETE') await fileStorage().deletePrefix(folder)
    else {
      const stored = await storeSquarePicture(request, folder)
      if (stored instanceof Response) return stored
      logo = stored
    }
    await authForDatabase(db).api.updateOrganization({
      body: { organizationId: caller.organizationId, data: { logo } },
      headers: new Headers({ cookie: request.headers.get('cookie') ?? '' }),
    })
    return Response.json({ logo }, { headers: { 'cache-control': 'no-store' } })
  })
}
