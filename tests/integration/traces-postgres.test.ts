// OpenTelemetry traces from a running server to an OTLP/HTTP receiver of the test's own (issue 28). Runs where
// DATABASE_URL names a PostgreSQL server (vitest.config.ts): its queries are traced by the pg instrumentation.

import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppServer, signUp, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'

interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[]
}

const receiverPort = testPorts.tracesReceiver
const appPort = testPorts.tracesApp

describe('traces of a console page load', { timeout: 240_000 }, () => {
  const spans: ReceivedSpan[] = []
  let receiver: Server
  let server: AppServer
  const cleanups: (() => Promise<unknown> | unknown)[] = []
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-traces-'))

  beforeAll(async () => {
    // What an OpenTelemetry collector offers: POST /v1/traces with OTLP as JSON.
    receiver = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => {
        body += chunk
      })
      request.on('end', () => {
        if (request.url === '/v1/traces') {
          const sent = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[] }
          for (const resource of sent.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans)
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => receiver.close(resolve)))
    const database = await createThrowawayPostgresDatabase(process.env.DATABASE_URL ?? '', 'hatch_traces')
    cleanups.push(() => database.drop())
    server = await startAppServer({
      port: appPort,
      env: {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        WEB_CONCURRENCY: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
        OTEL_SERVICE_NAME: 'hatch-under-test',
        // Sent within a fifth of a second instead of five.
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    })
    cleanups.push(() => server.stop())
  }, 180_000)

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const attribute = (span: ReceivedSpan, key: string) => {
    const value = span.attributes.find((entry) => entry.key === key)?.value
    return value?.stringValue ?? value?.intValue
  }

  it('follows the members list a console page loads: request → procedure → query', async () => {
    const cookie = await signUp(server.url, 'tracer@example.com')
    const input = encodeURIComponent(JSON.stringify({ json: { limit: 10 } }))
    const answer = await fetch(`${server.url}/api/trpc/organizations.members?input=${input}`, { headers: { cookie } })
    expect(answer.status).toBe(200)
    const requestId = answer.headers.get('x-request-id')

    let request: ReceivedSpan | undefined
    for (let waited = 0; waited < 15_000 && !request; waited += 200) {
      request = spans.find((span) => attribute(span, 'hatch.request_id') === requestId)
      if (!request) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(request?.name, 'the request’s span, named by its route').toBe('GET /api/trpc')
    expect(attribute(request as ReceivedSpan, 'http.response.status_code')).toBe(200)

    // The spans of one request end before it answers, but arrive in batches: wait for the query's.
    const childrenOf = (parent: ReceivedSpan | undefined) =>
      spans.filter((span) => span.parentSpanId === parent?.spanId)
    let procedure: ReceivedSpan | undefined
    for (let waited = 0; waited < 5_000; waited += 200) {
      procedure = childrenOf(request).find((span) => span.name === 'trpc organizations.members')
      if (procedure && childrenOf(procedure).some((span) => span.name.startsWith('pg.query'))) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(procedure, 'the procedure is a child of the request').toBeDefined()
    expect(procedure?.traceId).toBe(request?.traceId)
    const queries = childrenOf(procedure).filter((span) => span.name.startsWith('pg.query'))
    expect(queries.length, 'its database queries are its children').toBeGreaterThan(0)
    expect(new Set(queries.map((query) => query.traceId))).toEqual(new Set([request?.traceId]))
    // A query's text is kept, its values never are (they may be a session token or an email).
    const statements = queries.map((query) =>
      String(attribute(query, 'db.query.text') ?? attribute(query, 'db.statement')),
    )
    expect(statements.join('\n')).toMatch(/select/i)
    expect(JSON.stringify(spans)).not.toContain('tracer@example.com')

    // The server's log lines of that request name the trace.
    const line = server
      .output()
      .split('\n')
      .find((text) => text.includes(`"requestId":"${requestId}"`) && text.includes('"msg":"request"'))
    expect(line).toContain(`"traceId":"${request?.traceId}"`)
  })
})
