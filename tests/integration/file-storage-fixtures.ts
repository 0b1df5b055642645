import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { fileLinkSecret, useFileStorage } from '#/server/files/configured-storage'
import { localFileStorage } from '#/server/files/local-storage'
import { s3FileStorage } from '#/server/files/s3-storage'
import type { FileStorage } from '#/server/files/storage'
import { startTestS3Server } from '../support/s3-server'
import { testOrigin } from './auth-requests'
import { createFreshDatabase, type FreshDatabase } from './test-databases'

/**
 * The two places files go, for `describe.each`: a temporary folder on the disk and a bucket of s3rver, both started
 * for the file and removed after it, with an embedded database for the app. `database()` is ready in the tests.
 */
export function fileStorageCases(folderPrefix: string) {
  const localRoot = mkdtempSync(path.join(tmpdir(), folderPrefix))
  let s3: Awaited<ReturnType<typeof startTestS3Server>>
  let database: FreshDatabase
  beforeAll(async () => {
    s3 = await startTestS3Server()
    database = await createFreshDatabase('pglite')
    await database.connection.migrate()
  }, 60_000)
  afterAll(async () => {
    useFileStorage(undefined)
    await database.dispose()
    await s3.close()
    rmSync(localRoot, { recursive: true, force: true })
  })
  const storages: [string, () => FileStorage][] = [
    ['disk', () => localFileStorage({ root: localRoot, appUrl: testOrigin, secret: fileLinkSecret() })],
    ['S3', () => s3FileStorage(s3.settings)],
  ]
  return { storages, database: () => database, localRoot }
}
