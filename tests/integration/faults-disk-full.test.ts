import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, statSync, truncateSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#/server/db/client'
import { siteSettingChanges } from '#/server/db/schema'
import { type AppServer, readConfiguration, setRepositoryLink, signUp, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'

// DATA_DIR on a small filesystem of its own (a tmpfs: the test runs as root, as CI does), so it can be filled.
const mountPoint = mkdtempSync(path.join(tmpdir(), 'hatch-fault-disk-'))
const filler = path.join(mountPoint, 'filler')
let server: AppServer | undefined
let mounted = false

beforeAll(() => {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mountPoint])
  mounted = true
})
afterAll(async () => {
  await server?.stop('SIGKILL')
  if (mounted) execFileSync('umount', ['-l', mountPoint])
  rmSync(mountPoint, { recursive: true, force: true })
})

const freeBytes = () => {
  const { bavail, bsize } = statfsSync(mountPoint)
  return bavail * bsize
}

/** Waits until the server's own start-up writes (the job queue creates its tables after the first answer) are done. */
async function startUpWritesDone() {
  let before = freeBytes()
  // A second without writes, for at most 20 s: the test's own writes then run on a disk nobody else is writing to.
  for (let stillFor = 0, waited = 0; stillFor < 4 && waited < 80; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    const now = freeBytes()
    stillFor = now === before ? stillFor + 1 : 0
    before = now
  }
}

/**
 * Fills the filesystem until `bytesLeft` remain. Written a megabyte at a time, and given back where the server wrote
 * meanwhile: one write of the free space measured before could itself find the disk full (a CI run did).
 */
function fillLeaving(bytesLeft: number) {
  const chunk = Buffer.alloc(1024 * 1024)
  const fd = openSync(filler, 'w')
  try {
    for (let toWrite = freeBytes() - bytesLeft; toWrite > 0; toWrite = freeBytes() - bytesLeft) {
      try {
        writeSync(fd, chunk, 0, Math.min(chunk.length, toWrite))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break
        throw error
      }
    }
  } finally {
    closeSync(fd)
  }
  const short = bytesLeft - freeBytes()
  if (short > 0) truncateSync(filler, Math.max(0, statSync(filler).size - short))
}

describe('DATA_DIR on a full disk (embedded database)', () => {
  it('refuses writes with a clear, translated 503 while full, and works with no data lost once space returns', async () => {
    server = await startAppServer({ port: testPorts.diskFull, env: { DATA_DIR: mountPoint } })
    const { url } = server
    // The install's first account is its app admin, who may change Configuration: each change is a row written.
    const admin = await signUp(url, 'operator@example.com')
    const settings = await readConfiguration(url, admin)
    const write = (link: string) => setRepositoryLink(url, admin, settings, link)
    const acknowledged: string[] = []
    for (let n = 0; n < 5; n++) {
      const link = `https://example.com/before-${n}`
      if ((await write(link)).status === 200) acknowledged.push(link)
    }
    expect(acknowledged).toHaveLength(5)

    await startUpWritesDone()
    fillLeaving(64 * 1024)
    const refusals: { status: number; retryAfter: string | null; body: string }[] = []
    // Rows fill the pages left; within a few hundred writes the table must grow and cannot.
    for (let n = 0; n < 2000 && refusals.length < 3; n++) {
      const link = `https://example.com/full-${n}/${'x'.repeat(400)}`
      const answer = await write(link)
      if (answer.status === 200) acknowledged.push(link)
      else refusals.push(answer)
    }
    expect(refusals.length, 'writes are refused once the disk is full').toBe(3)
    for (const refusal of refusals) {
      expect(refusal.status, refusal.body).toBe(503)
      expect(refusal.retryAfter).toMatch(/^\d+$/)
      const { error } = JSON.parse(refusal.body) as { error: { json: { message: string; data: { appCode?: string } } } }
      expect(error.json.data.appCode, 'a code the client translates').toBe('STORAGE_FULL')
      expect(refusal.body).not.toMatch(/Failed query|insert into|No space left|base\/\d+/i)
    }
    expect(server.process.exitCode, 'the server keeps running').toBeNull()
    expect((await fetch(`${server.url}/api/health`)).status, 'reads still work').toBe(200)

    rmSync(filler)
    const afterSpace = 'https://example.com/after-space'
    let after = await write(afterSpace)
    for (let attempt = 0; attempt < 20 && after.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      after = await write(afterSpace)
    }
    expect(after.status, after.body).toBe(200)
    acknowledged.push(afterSpace)
    expect(await server.stop('SIGTERM'), 'a clean stop').toBe(0)
    server = undefined

    const reopened = openDatabase({ engine: 'pglite', dataDir: path.join(mountPoint, 'pglite') })
    try {
      const stored = new Set(
        (await reopened.db.select({ link: siteSettingChanges.newValue }).from(siteSettingChanges)).map(
          (row) => JSON.parse(row.link) as unknown,
        ),
      )
      expect(
        acknowledged.filter((link) => !stored.has(link)),
        'acknowledged writes missing',
      ).toEqual([])
    } finally {
      await reopened.close()
    }
  }, 120_000)
})
