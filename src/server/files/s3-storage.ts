import type { S3Client } from '@aws-sdk/client-s3'
import { assertStorageKey, attachmentDisposition, type FileStorage } from './storage'

export interface S3Settings {
  bucket: string
  region: string
  /** Any S3-compatible service (R2, MinIO, …); unset: AWS itself. */
  endpoint?: string
  accessKeyId: string
  secretAccessKey: string
}

/** The SDK, loaded with the first file a server stores or reads (its modules cost start-up time otherwise). */
const loadSdk = async () => {
  const [s3, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')])
  return { s3, presigner }
}

/** Files in an S3-compatible bucket through the AWS SDK v3; links are presigned GETs. */
export function s3FileStorage(settings: S3Settings): FileStorage {
  let connected: Promise<{ client: S3Client; sdk: Awaited<ReturnType<typeof loadSdk>> }> | undefined
  const connect = () => {
    connected ??= loadSdk().then((sdk) => ({
      sdk,
      client: new sdk.s3.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        // Path-style addressing works with every S3-compatible service; virtual hosts need DNS per bucket.
        forcePathStyle: Boolean(settings.endpoint),
        credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      }),
    }))
    return connected
  }
  const Bucket = settings.bucket
  return {
    kind: 's3',
    async put(key, body, contentType) {
      assertStorageKey(key)
      const { client, sdk } = await connect()
      await client.send(new sdk.s3.PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }))
    },
    async get(key) {
      assertStorageKey(key)
      const { client, sdk } = await connect()
      try {
        const answer = await client.send(new sdk.s3.GetObjectCommand({ Bucket, Key: key }))
        const body = await answer.Body?.transformToByteArray()
        return body ? { body, contentType: answer.ContentType ?? 'application/octet-stream' } : null
      } catch (error) {
        if (error instanceof sdk.s3.NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null
        throw error
      }
    },
    async delete(key) {
      assertStorageKey(key)
      const { client, sdk } = await connect()
      await client.send(new sdk.s3.DeleteObjectCommand({ Bucket, Key: key }))
    },
    async deletePrefix(prefix) {
      assertStorageKey(prefix.replace(/\/$/, ''))
      const { client, sdk } = await connect()
      let deleted = 0
      let token: string | undefined
      do {
        const page = await client.send(
          new sdk.s3.ListObjectsV2Command({
            Bucket,
            Prefix: prefix.endsWith('/') ? prefix : `${prefix}/`,
            ContinuationToken: token,
          }),
        )
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []))
        if (keys.length > 0) {
          await client.send(new sdk.s3.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }))
          deleted += keys.length
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return deleted
    },
    async *keys() {
      const { client, sdk } = await connect()
      let token: string | undefined
      do {
        const page = await client.send(new sdk.s3.ListObjectsV2Command({ Bucket, ContinuationToken: token }))
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
    },
    async temporaryUrl(key, seconds, link = {}) {
      assertStorageKey(key)
      const { client, sdk } = await connect()
      const read = new sdk.s3.GetObjectCommand({
        Bucket,
        Key: key,
        ResponseContentDisposition:
          link.downloadName === undefined ? undefined : attachmentDisposition(link.downloadName),
      })
      return sdk.presigner.getSignedUrl(client, read, { expiresIn: seconds, signingDate: link.signedAt })
    },
  }
}
