import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { assertStorageKey, type FileStorage } from './storage'

export interface S3Settings {
  bucket: string
  region: string
  /** Any S3-compatible service (R2, MinIO, …); unset: AWS itself. */
  endpoint?: string
  accessKeyId: string
  secretAccessKey: string
}

/** Files in an S3-compatible bucket through the AWS SDK v3; links are presigned GETs. */
export function s3FileStorage(settings: S3Settings): FileStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // Path-style addressing works with every S3-compatible service; virtual hosts need DNS per bucket.
    forcePathStyle: Boolean(settings.endpoint),
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  })
  const Bucket = settings.bucket
  return {
    kind: 's3',
    async put(key, body, contentType) {
      assertStorageKey(key)
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }))
    },
    async get(key) {
      assertStorageKey(key)
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }))
        const body = await answer.Body?.transformToByteArray()
        return body ? { body, contentType: answer.ContentType ?? 'application/octet-stream' } : null
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null
        throw error
      }
    },
    async delete(key) {
      assertStorageKey(key)
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
    },
    async deletePrefix(prefix) {
      assertStorageKey(prefix.replace(/\/$/, ''))
      let deleted = 0
      let token: string | undefined
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket,
            Prefix: prefix.endsWith('/') ? prefix : `${prefix}/`,
            ContinuationToken: token,
          }),
        )
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []))
        if (keys.length > 0) {
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }))
          deleted += keys.length
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return deleted
    },
    temporaryUrl(key, seconds) {
      assertStorageKey(key)
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), { expiresIn: seconds })
    },
  }
}
