// Several processes (WEB_CONCURRENCY=2, as on PostgreSQL by default) stop in time after requests the framework answers
// at once, and the launcher ends a process that is stuck. PostgreSQL only: the embedded database is held by one process
// (vitest.config.ts runs this file where DATABASE_URL names a server).
import { describe, expect, it } from 'vitest'
import { closingAllowanceMs, launcherAllowanceMs } from '../../scripts/shutdown-deadline'
import { childrenOf } from '../support/app-server'
import { testPorts } from '../support/ports'
import { cleanups, serverOn, shutdownTimeoutMs, stopWithin } from './shutdown-servers'

describe('several processes (WEB_CONCURRENCY=2) on PostgreSQL', () => {
  it('stop in time after such requests, the launcher ending a process that is stuck', {
    timeout: 120_000,
  }, async () => {
    const server = await serverOn('postgres', testPorts.shutdownSeveral, { WEB_CONCURRENCY: '2' })
    const deadline = Date.now() + 60_000
    while (server.output().split('is listening').length - 1 < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const workers = childrenOf(server.process.pid ?? 0)
    expect(workers).toHaveLength(2)
    // Each connection goes to one process or the other: enough of them reach both.
    const answeredBy = new Set<number>()
    for (let attempt = 0; attempt < 60 && answeredBy.size < 2; attempt++) {
      const response = await fetch(`${server.url}/%C0%80`, { headers: { connection: 'close' } })
      expect(response.status).toBe(400)
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.includes('"path":"/%C0%80"'))
      for (const line of lines) answeredBy.add((JSON.parse(line) as { pid: number }).pid)
    }
    expect([...answeredBy].sort(), 'both processes answered such a request').toEqual([...workers].sort())

    // One process stops responding to everything, signals included; the other must stop on its own.
    const [stuck = 0, healthy = 0] = workers
    process.kill(stuck, 'SIGSTOP')
    cleanups.push(() => {
      for (const pid of [stuck, healthy]) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // already gone
        }
      }
    })
    const bound = shutdownTimeoutMs + closingAllowanceMs + launcherAllowanceMs
    const { code } = await stopWithin(server, bound + 5_000)
    expect(code, 'the launcher says one process did not stop cleanly').toBe(1)
    const stopped = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"Stopped."'))
    expect(stopped.map((line) => (JSON.parse(line) as { pid: number }).pid)).toEqual([healthy])
    expect(server.output()).toContain('still running')
    const isRunning = (pid: number) => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    await expect.poll(() => isRunning(stuck), { timeout: 5_000 }).toBe(false)
  })
})
