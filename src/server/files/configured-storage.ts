import path from 'node:path'
import { resolveAuthSecret } from '../auth-secret'
import { getEnv } from '../env'
import { localFileStorage } from './local-storage'
import { s3FileStorage } from './s3-storage'
import type { FileStorage } from './storage'

let current: FileStorage | undefined

/** The secret local file links are signed with: the auth secret of this install. */
export function fileLinkSecret(): string {
  const env = getEnv()
  return resolveAuthSecret({ configured: env.BETTER_AUTH_SECRET, dataDir: env.DATA_DIR }).secret
}

/** The storage the environment names: the S3 bucket when S3_BUCKET is set, else `DATA_DIR/files`. */
export function fileStorage(): FileStorage {
  if (current) return current
  const env = getEnv()
  current =
    env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? s3FileStorage({
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        })
      : localFileStorage({ root: path.join(env.DATA_DIR, 'files'), appUrl: env.APP_URL, secret: fileLinkSecret() })
  return current
}

/** Tests point the app at their own storage (a bucket of theirs, a temporary folder). */
export function useFileStorage(storage: FileStorage | undefined): void {
  current = storage
}
