import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { S3Client } from '@aws-sdk/client-s3'
import { manifestName } from './manifest'

/**
 * Where backups are kept: a folder (another disk, a mounted volume) or an S3-compatible bucket under a prefix, named
 * by BACKUP_TO (`/mnt/backups`, `s3://my-backups/hatch`). Each backup is `hatch-backup-<UTC time>/`, complete once its
 * manifest is there; a bucket receives the manifest last for the same reason.
 */
export interface BackupStore {
  /** The place as people write it (a folder's full path, `s3://bucket/prefix`). */
  readonly where: string
  /** A local folder to write a new backup into; `keep` then makes it a finished backup called `name`. */
  workFolder(name: string): Promise<string>
  keep(workFolder: string, name: string): Promise<{ location: string; bytes: number }>
  /** Finished backups, oldest first. */
  list(): Promise<{ name: string; takenAt: Date }[]>
  remove(name: string): Promise<void>
}

export interface S3Access {
  region: string
  endpoint?: string
  accessKeyId: string
  secretAccessKey: string
}

const namePattern = /^hatch-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/

/** `hatch-backup-20261207T031500123Z`: sorts by time as text, and says when it was taken. */
export function backupName(at: Date): string {
  return `hatch-backup-${at.toISOString().replace(/[-:.]/g, '')}`
}

export function backupTakenAt(name: string): Date | undefined {
  const match = namePattern.exec(name)
  if (!match) return undefined
  const [, year, month, day, hour, minute, second, ms] = match
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}Z`)
}

/** `s3://bucket/some/prefix` → its parts; anything else is a folder. */
export function parseS3Address(address: string): { bucket: string; prefix: string } | undefined {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(address)
  if (!match?.[1]) return undefined
  return { bucket: match[1], prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, '') }
}

export function backupStore(address: string, s3?: S3Access): BackupStore {
  const bucket = parseS3Address(address)
  if (!bucket) return folderStore(path.resolve(address))
  if (!s3) throw new Error(`${address} is a bucket: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to reach it`)
  return bucketStore(bucket.bucket, bucket.prefix, s3)
}

async function folderSize(folder: string): Promise<number> {
  let bytes = 0
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(path.join(entry.parentPath, entry.name))).size
  }
  return bytes
}

function folderStore(root: string): BackupStore {
  return {
    where: root,
    async workFolder(name) {
      const folder = path.join(root, `${name}.partial`)
      await mkdir(folder, { recursive: true, mode: 0o700 })
      return folder
    },
    async keep(workFolder, name) {
      const location = path.join(root, name)
      await rename(workFolder, location)
      return { location, bytes: await folderSize(location) }
    },
    async list() {
      let entries: string[]
      try {
        entries = await readdir(root)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
        throw error
      }
      const found: { name: string; takenAt: Date }[] = []
      for (const name of entries.sort()) {
        const takenAt = backupTakenAt(name)
        if (!takenAt) continue
        const finished = await stat(path.join(root, name, manifestName)).then(
          () => true,
          () => false,
        )
        if (finished) found.push({ name, takenAt })
      }
      return found
    },
    async remove(name) {
      await rm(path.join(root, name), { recursive: true, force: true })
    },
  }
}

async function s3Client(access: S3Access) {
  const sdk = await import('@aws-sdk/client-s3')
  const client: S3Client = new sdk.S3Client({
    region: access.region,
    endpoint: access.endpoint,
    forcePathStyle: Boolean(access.endpoint),
    credentials: { accessKeyId: access.accessKeyId, secretAccessKey: access.secretAccessKey },
  })
  return { sdk, client }
}

function bucketStore(bucket: string, prefix: string, access: S3Access): BackupStore {
  const keyOf = (...parts: string[]) => [prefix, ...parts].filter(Boolean).join('/')
  const where = `s3://${bucket}${prefix ? `/${prefix}` : ''}`
  const listKeys = async (under: string) => {
    const { sdk, client } = await s3Client(access)
    const keys: string[] = []
    let token: string | undefined
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: under, ContinuationToken: token }),
      )
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key)
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    return keys
  }
  return {
    where,
    async workFolder() {
      return mkdtemp(path.join(tmpdir(), 'hatch-backup-'))
    },
    async keep(workFolder, name) {
      const { sdk, client } = await s3Client(access)
      const files = (await readdir(workFolder, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(workFolder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
        // The manifest goes last: a backup in the bucket without it is one that did not finish.
        .sort((a, b) => Number(a === manifestName) - Number(b === manifestName))
      let bytes = 0
      for (const file of files) {
        const body = await readFile(path.join(workFolder, ...file.split('/')))
        bytes += body.byteLength
        await client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: keyOf(name, file), Body: body }))
      }
      await rm(workFolder, { recursive: true, force: true })
      return { location: `${where}/${name}`, bytes }
    },
    async list() {
      const names = new Set<string>()
      for (const key of await listKeys(keyOf(''))) {
        const relative = prefix ? key.slice(prefix.length + 1) : key
        const [name, file] = relative.split('/')
        if (name && file === manifestName && backupTakenAt(name)) names.add(name)
      }
      return [...names].sort().map((name) => ({ name, takenAt: backupTakenAt(name) as Date }))
    },
    async remove(name) {
      const { sdk, client } = await s3Client(access)
      const keys = await listKeys(`${keyOf(name)}/`)
      // The manifest first: a backup half removed no longer counts as one.
      keys.sort((a, b) => Number(b.endsWith(`/${manifestName}`)) - Number(a.endsWith(`/${manifestName}`)))
      for (const key of keys) await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }))
    },
  }
}

/**
 * A backup to restore, as a local folder: the folder itself, or `s3://bucket/prefix/hatch-backup-…` copied into a
 * temporary folder (`cleanUp` removes it).
 */
export async function fetchBackup(
  address: string,
  s3?: S3Access,
): Promise<{ folder: string; cleanUp(): Promise<void> }> {
  const inBucket = parseS3Address(address)
  if (!inBucket) return { folder: path.resolve(address), cleanUp: async () => undefined }
  if (!s3) throw new Error(`${address} is in a bucket: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to reach it`)
  const { sdk, client } = await s3Client(s3)
  const folder = await mkdtemp(path.join(tmpdir(), 'hatch-restore-'))
  const prefix = `${inBucket.prefix}/`
  let token: string | undefined
  do {
    const page = await client.send(
      new sdk.ListObjectsV2Command({ Bucket: inBucket.bucket, Prefix: prefix, ContinuationToken: token }),
    )
    for (const object of page.Contents ?? []) {
      if (!object.Key) continue
      const relative = object.Key.slice(prefix.length)
      if (!relative || relative.split('/').some((part) => part === '..' || part === '')) continue
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: inBucket.bucket, Key: object.Key }))
      const target = path.join(folder, ...relative.split('/'))
      await mkdir(path.dirname(target), { recursive: true })
      await writeFile(target, (await answer.Body?.transformToByteArray()) ?? new Uint8Array())
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined
  } while (token)
  return { folder, cleanUp: () => rm(folder, { recursive: true, force: true }) }
}
