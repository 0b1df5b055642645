import { fileLinkSecret, fileStorage } from '#/server/files/configured-storage'
import { attachmentDisposition, isStorageKey, readFileLinkQuery, verifyFileLink } from '#/server/files/storage'
import { publicFileKey } from '../avatar-rules'

const notFound = () =>
  Response.json(
    { code: 'NOT_FOUND', message: 'No such file' },
    { status: 404, headers: { 'cache-control': 'no-store' } },
  )

/**
 * `GET /api/files/{key}`: a public file (a profile picture or an organization's logo: its name is its content's hash,
 * so it is cached for a year), or, on the local disk, a file named by a temporary link this server signed (`expires`,
 * `name` for a download, `signature`); an expired, altered or missing link is 403. With S3 the temporary links point
 * at the bucket itself.
 */
export async function answerFileRequest(request: Request, key: string): Promise<Response> {
  if (!isStorageKey(key)) return notFound()
  const isPublic = publicFileKey.test(key)
  const link = isPublic ? null : readFileLinkQuery(new URL(request.url).searchParams)
  if (!isPublic && (!link || !verifyFileLink(fileLinkSecret(), { key, ...link }))) {
    return Response.json(
      { code: 'LINK_EXPIRED', message: 'This link has expired or is not valid' },
      { status: 403, headers: { 'cache-control': 'no-store' } },
    )
  }
  const expires = link?.expires ?? 0
  const downloadName = link?.downloadName
  const file = await fileStorage().get(key)
  if (!file) return notFound()
  return new Response(Buffer.from(file.body), {
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.body.byteLength),
      // A signed link stays the same for a while (src/server/files/member-links.ts): cached until it expires.
      'cache-control': isPublic
        ? 'public, max-age=31536000, immutable'
        : `private, max-age=${Math.max(0, expires - Math.floor(Date.now() / 1000))}`,
      'x-content-type-options': 'nosniff',
      // A file is never a page of this site: no script runs in it, whatever it holds.
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': downloadName === undefined || isPublic ? 'inline' : attachmentDisposition(downloadName),
    },
  })
}
