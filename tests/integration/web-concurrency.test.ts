import { afterAll, describe, expect, it } from 'vitest'
import { type AppServer, childrenOf, serverStorage, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'
import { coreEngines } from './test-databases'

const metricsToken = 'metrics-token-for-the-cluster-test'

describe.each(coreEngines)('npm start with WEB_CONCURRENCY=2 on %s', { timeout: 600_000 }, (engine) => {
  let server: AppServer | undefined
  const cleanups: (() => Promise<void> | void)[] = []
  afterAll(async () => {
    await server?.stop()
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  it(
    engine === 'postgres'
      ? 'runs two app processes on one port, each answering, and stops them all on SIGTERM'
      : 'runs one process on the embedded database, which only one process can open',
    async () => {
      const storage = await serverStorage(engine, 'cluster', cleanups)
      server = await startAppServer({
        port: engine === 'postgres' ? testPorts.webConcurrencyPostgres : testPorts.webConcurrencyEmbedded,
        env: { WEB_CONCURRENCY: '2', ...storage, METRICS_TOKEN: metricsToken },
      })
      const expected = engine === 'postgres' ? 2 : 1
      // Each process says it listens once it has started.
      const deadline = Date.now() + 120_000
      while (server.output().split('is listening').length - 1 < expected && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      expect(server.output().split('is listening').length - 1).toBe(expected)
      const pid = server.process.pid ?? 0
      expect(childrenOf(pid).length, 'app processes under the launcher').toBe(engine === 'postgres' ? 2 : 0)
      const requestIds = new Set<string>()
      for (let request = 0; request < 20; request++) {
        const health = await fetch(`${server.url}/api/health`)
        expect(health.status).toBe(200)
        requestIds.add(health.headers.get('x-request-id') ?? '')
      }
      expect(requestIds.size, 'each answer has its own request id').toBe(20)

      // Each request is one JSON log line carrying the id its answer gave back.
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; requestId?: string; path?: string; status?: number })
      const logged = lines.filter((line) => line.msg === 'request' && line.path === '/api/health')
      expect(new Set(logged.map((line) => line.requestId))).toEqual(requestIds)
      expect(logged.filter((line) => line.status !== 200)).toEqual([])

      // A scrape reaches one process and counts the requests every process answered.
      expect((await fetch(`${server.url}/api/metrics`)).status, 'no token, no metrics').toBe(401)
      const wrongToken = { authorization: `Bearer ${metricsToken.toUpperCase()}` }
      expect((await fetch(`${server.url}/api/metrics`, { headers: wrongToken })).status).toBe(401)
      const metrics = await fetch(`${server.url}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
      expect(metrics.status).toBe(200)
      const text = await metrics.text()
      expect(text).toContain('hatch_http_requests_total{method="GET",route="/api/health",status="200"} 20')
      expect(text).toMatch(/^hatch_process_resident_memory_bytes \d+/m)
      expect(text).toMatch(/^hatch_email_outbox_messages\{status="dead"\} 0$/m)
      // Each process starts its job queue after its first answer, which takes a moment more on a busy machine: the
      // queue's gauge appears once one of them has.
      const scrape = `${server.url}/api/metrics`
      await expect
        .poll(async () => (await fetch(scrape, { headers: { authorization: `Bearer ${metricsToken}` } })).text(), {
          timeout: 15_000,
          interval: 250,
        })
        .toContain('hatch_job_queue_jobs{queue="email-delivery"')
      expect(await server.stop('SIGTERM')).toBe(0)
      expect(server.output().split('Stopped.').length - 1, 'each process finished and stopped').toBe(expected)
      expect(childrenOf(pid)).toEqual([])
    },
  )
})
