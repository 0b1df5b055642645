import { randomBytes } from 'node:crypto'
import type { Dirent } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { assertStorageKey, type FileStorage, isStorageKey, signFileLink } from './storage'

/** Files under one folder on this machine; each file's type is kept beside it (`{file}.type`). */
export function localFileStorage(options: { root: string; appUrl: string; secret: string }): FileStorage {
  const root = path.resolve(options.root)
  const pathOf = (key: string) => {
    assertStorageKey(key)
    return path.join(root, ...key.split('/'))
  }
  return {
    kind: 'local',
    async put(key, body, contentType) {
      const target = pathOf(key)
      await mkdir(path.dirname(target), { recursive: true })
      // Written beside the target and renamed over it: a reader never sees half a file.
      const partial = `${target}.${randomBytes(6).toString('hex')}.partial`
      await writeFile(partial, body)
      await writeFile(`${target}.type`, contentType)
      await rename(partial, target)
    },
    async get(key) {
      const target = pathOf(key)
      try {
        const [body, contentType] = await Promise.all([readFile(target), readFile(`${target}.type`, 'utf8')])
        return { body: new Uint8Array(body), contentType }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async delete(key) {
      const target = pathOf(key)
      await rm(target, { force: true })
      await rm(`${target}.type`, { force: true })
    },
    async deletePrefix(prefix) {
      const folder = pathOf(prefix.replace(/\/$/, ''))
      let count = 0
      try {
        const entries = await readdir(folder, { recursive: true, withFileTypes: true })
        count = entries.filter((entry) => entry.isFile() && !entry.name.endsWith('.type')).length
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
        throw error
      }
      await rm(folder, { recursive: true, force: true })
      return count
    },
    async *keys() {
      let entries: Dirent[]
      try {
        entries = await readdir(root, { recursive: true, withFileTypes: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
        throw error
      }
      for (const entry of entries) {
        if (!entry.isFile() || entry.name.endsWith('.type') || entry.name.endsWith('.partial')) continue
        const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')
        if (isStorageKey(key)) yield key
      }
    },
    async temporaryUrl(key, seconds, link = {}) {
      assertStorageKey(key)
      const expires = Math.floor((link.signedAt ?? new Date()).getTime() / 1000) + seconds
      const signature = signFileLink(options.secret, key, expires, link.downloadName)
      const name = link.downloadName === undefined ? '' : `&name=${encodeURIComponent(link.downloadName)}`
      return `${options.appUrl}/api/files/${key}?expires=${expires}${name}&signature=${signature}`
    },
  }
}
