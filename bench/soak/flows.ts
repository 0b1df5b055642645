// The soak's flows: what a visitor, a person signing up, a buyer, an editor, an importer and an agent do, step by step.
// Each connection repeats its flow; a step that needs what an earlier one answered (a session, a book id, a checkout)
// starts the flow again when that answer did not come. Every write the server acknowledges is noted for the checks.
import type { Acknowledged } from './acknowledged.ts'
import type { SoakOrganization } from './setup.ts'
import {
  beaconBody,
  bookPayload,
  browserUserAgent,
  importCsv,
  mcpHeaders,
  mcpToolCall,
  sessionCookieOf,
  soakPassword,
  trpcBody,
  trpcData,
  trpcQueryPath,
} from './wire.ts'

/** What a flow learnt so far; autocannon gives each connection its own and clears it when the flow starts over. */
export type Flow = Record<string, string | undefined>
export type Headers = Record<string, string>

export interface Step {
  /** The row of the latency table this request counts in. */
  kind: string
  method: 'GET' | 'POST'
  path?: string
  headers?: Headers
  body?: string
  /** 200 unless said. */
  expect?: number
  /** Builds the request from the flow; null starts the flow over (an earlier step's answer is missing). */
  build?: (flow: Flow) => { path?: string; body?: string; headers?: Headers } | null
  onAnswer?: (status: number, body: string, flow: Flow, headers: Record<string, string | string[]>) => void
}

export interface Scenario {
  name: string
  connections: number
  /** Requests per second per connection; unlimited when absent. */
  rate?: number
  headers: Headers
  steps: Step[]
}

let sequence = 0
const next = () => ++sequence

function headerValues(headers: Record<string, string | string[]>, name: string): string[] {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]
  return found === undefined ? [] : Array.isArray(found) ? found : [found]
}

function visitorSteps(origin: string, runTag: string, acknowledged: Acknowledged, beacons: boolean): Step[] {
  const page = (kind: string, path: string): Step => ({ kind, method: 'GET', path })
  const beacon = (pagePath: string): Step => ({
    kind: 'POST /api/insights (beacon)',
    method: 'POST',
    path: '/api/insights',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    expect: 202,
    build: (flow) => {
      flow.beacon = `sk${runTag}${next()}`
      return { body: beaconBody(flow.beacon, `${origin}${pagePath}?utm_source=soak`) }
    },
    onAnswer: (status, _body, flow) => {
      if (status === 202 && flow.beacon) acknowledged.beacons.add(flow.beacon)
    },
  })
  // A page view's beacon goes with each English page while the analytics app is installed.
  const withBeacon = (step: Step, path: string) => (beacons ? [step, beacon(path)] : [step])
  return [
    ...withBeacon(page('GET /en/ (landing)', '/en/'), '/en/'),
    page('GET /zh/ (landing)', '/zh/'),
    ...withBeacon(page('GET docs page', '/en/docs/development/testing'), '/en/docs/development/testing'),
    page('GET docs page', '/zh/docs/development/testing'),
    page('GET /llms.txt', '/llms.txt'),
  ]
}

function editorSteps(runTag: string, organization: number, acknowledged: Acknowledged): Step[] {
  return [
    { kind: 'books.list', method: 'GET', path: trpcQueryPath('books.list', { limit: 25 }) },
    {
      kind: 'books.create',
      method: 'POST',
      path: '/api/trpc/books.create',
      build: (flow) => {
        flow.title = `Soak ${runTag} org ${organization} book ${next()}`
        return { body: trpcBody(bookPayload(flow.title)) }
      },
      onAnswer: (status, body, flow) => {
        const created = status === 200 ? trpcData<{ id: string }>(body) : undefined
        if (!created?.id || !flow.title) return
        acknowledged.bookTitles.add(flow.title)
        flow.bookId = created.id
      },
    },
    {
      kind: 'books.get',
      method: 'GET',
      build: (flow) => (flow.bookId ? { path: trpcQueryPath('books.get', { id: flow.bookId }) } : null),
    },
    {
      kind: 'books.update',
      method: 'POST',
      path: '/api/trpc/books.update',
      build: (flow) => {
        if (!flow.bookId || !flow.title) return null
        flow.edit = `edited ${next()}`
        return { body: trpcBody({ id: flow.bookId, book: bookPayload(flow.title, flow.edit) }) }
      },
      onAnswer: (status, _body, flow) => {
        if (status === 200 && flow.bookId && flow.edit) acknowledged.bookEdits.set(flow.bookId, flow.edit)
      },
    },
    { kind: 'books.list', method: 'GET', path: trpcQueryPath('books.list', { q: 'soak', limit: 25 }) },
  ]
}

function importSteps(runTag: string, organization: number, acknowledged: Acknowledged): Step[] {
  const rows = 5
  return [
    {
      kind: `books.import (${rows}-row CSV)`,
      method: 'POST',
      path: '/api/trpc/books.import',
      build: (flow) => {
        const file = importCsv(`Soak ${runTag} org ${organization} import ${next()}`, rows)
        flow.titles = JSON.stringify(file.titles)
        return { body: trpcBody({ csv: file.csv, dryRun: false }) }
      },
      onAnswer: (status, body, flow) => {
        if (status !== 200 || trpcData<{ imported: number }>(body)?.imported !== rows || !flow.titles) return
        acknowledged.imports++
        for (const title of JSON.parse(flow.titles) as string[]) acknowledged.bookTitles.add(title)
      },
    },
  ]
}

function mcpSteps(runTag: string, organization: number, acknowledged: Acknowledged): Step[] {
  const toolAnswer = (body: string) => {
    try {
      return (JSON.parse(body) as { result?: { isError?: boolean } }).result
    } catch {
      return undefined
    }
  }
  return [
    {
      kind: 'MCP tools/list',
      method: 'POST',
      path: '/api/mcp',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    },
    { kind: 'MCP list_books', method: 'POST', path: '/api/mcp', body: mcpToolCall(2, 'list_books', {}) },
    {
      kind: 'MCP create_book',
      method: 'POST',
      path: '/api/mcp',
      build: (flow) => {
        flow.title = `Soak ${runTag} org ${organization} agent book ${next()}`
        return { body: mcpToolCall(3, 'create_book', { title: flow.title }) }
      },
      onAnswer: (status, body, flow) => {
        const result = status === 200 ? toolAnswer(body) : undefined
        if (result && !result.isError && flow.title) acknowledged.bookTitles.add(flow.title)
      },
    },
  ]
}

function signUpStep(runTag: string, acknowledged: Acknowledged, who: string): Step {
  return {
    kind: 'sign-up (email)',
    method: 'POST',
    path: '/api/auth/sign-up/email',
    build: (flow) => {
      flow.email = `soak-${runTag}-${who}-${next()}@example.com`
      return { body: JSON.stringify({ name: 'Soak visitor', email: flow.email, password: soakPassword }) }
    },
    onAnswer: (status, _body, flow, headers) => {
      if (status !== 200 || !flow.email) return
      acknowledged.accounts.add(flow.email)
      flow.cookie = sessionCookieOf(headerValues(headers, 'set-cookie'))
    },
  }
}

const withCookie = (flow: Flow) => (flow.cookie ? { cookie: flow.cookie } : null)

function accountSteps(runTag: string, acknowledged: Acknowledged): Step[] {
  return [
    signUpStep(runTag, acknowledged, 'person'),
    {
      kind: 'sign-in (email)',
      method: 'POST',
      path: '/api/auth/sign-in/email',
      build: (flow) => (flow.email ? { body: JSON.stringify({ email: flow.email, password: soakPassword }) } : null),
      onAnswer: (status, _body, flow, headers) => {
        flow.cookie = status === 200 ? sessionCookieOf(headerValues(headers, 'set-cookie')) : undefined
      },
    },
    {
      kind: 'GET /api/auth/get-session',
      method: 'GET',
      path: '/api/auth/get-session',
      build: (flow) => {
        const headers = withCookie(flow)
        return headers ? { headers } : null
      },
    },
    {
      kind: 'books.list',
      method: 'GET',
      path: trpcQueryPath('books.list', { limit: 10 }),
      build: (flow) => {
        const headers = withCookie(flow)
        return headers ? { headers } : null
      },
    },
  ]
}

function checkoutSteps(runTag: string, acknowledged: Acknowledged): Step[] {
  return [
    signUpStep(runTag, acknowledged, 'buyer'),
    {
      kind: 'billing.startCheckout',
      method: 'POST',
      path: '/api/trpc/billing.startCheckout',
      build: (flow) => {
        const headers = withCookie(flow)
        if (!headers) return null
        return { headers, body: trpcBody({ planId: 'pro', interval: 'monthly', currency: 'USD', locale: 'en' }) }
      },
      onAnswer: (status, body, flow) => {
        const started = status === 200 ? trpcData<{ orderId: string; url: string }>(body) : undefined
        if (!started) return
        acknowledged.checkoutsStarted.add(started.orderId)
        flow.orderId = started.orderId
        flow.checkoutId = started.url.slice(started.url.lastIndexOf('/') + 1)
      },
    },
    {
      kind: 'billing.local.settle (pay)',
      method: 'POST',
      path: '/api/trpc/billing.local.settle',
      build: (flow) => {
        const headers = withCookie(flow)
        if (!headers || !flow.checkoutId) return null
        return { headers, body: trpcBody({ id: flow.checkoutId, outcome: 'pay' }) }
      },
      onAnswer: (status, _body, flow) => {
        if (status === 200 && flow.orderId) acknowledged.ordersPaid.add(flow.orderId)
        else flow.orderId = undefined
      },
    },
    {
      kind: 'billing.overview',
      method: 'GET',
      path: trpcQueryPath('billing.overview'),
      build: (flow) => {
        const headers = withCookie(flow)
        return headers && flow.orderId ? { headers } : null
      },
      onAnswer: (status, body) => {
        if (status === 200 && trpcData<{ planId: string }>(body)?.planId !== 'pro') acknowledged.planNotShown++
      },
    },
  ]
}

/**
 * The mix: 200 connections, each at about a person's pace (1-2 requests a second), ~220 requests a second offered in
 * all. Unpaced, 200 connections only measure the queue in front of a saturated server (on the embedded database every
 * query waits its turn on one connection, so a sign-up's ten queries took 16 s at p50), not how each kind of request
 * fares under a steady load; where the machine cannot keep up, the load still saturates it.
 */
export function soakScenarios(options: {
  origin: string
  runTag: string
  organizations: SoakOrganization[]
  acknowledged: Acknowledged
  /** The installed apps (src/apps.ts): a removed app's requests are not sent. */
  installedApps: readonly string[]
}): Scenario[] {
  const { origin, runTag, organizations, acknowledged, installedApps } = options
  const beacons = installedApps.includes('analytics')
  const browser = { origin, 'user-agent': browserUserAgent }
  const json = { ...browser, 'content-type': 'application/json' }
  return [
    {
      name: beacons ? 'visitors (pages, beacons)' : 'visitors (pages)',
      connections: 120,
      rate: 1,
      headers: browser,
      steps: visitorSteps(origin, runTag, acknowledged, beacons),
    },
    {
      name: 'sign-up, sign-in, session',
      connections: 5,
      rate: 1,
      headers: json,
      steps: accountSteps(runTag, acknowledged),
    },
    {
      name: 'checkouts (local provider)',
      connections: 5,
      rate: 1,
      headers: json,
      steps: checkoutSteps(runTag, acknowledged),
    },
    ...organizations.flatMap((organization): Scenario[] => {
      const asOwner = { ...json, cookie: organization.cookie }
      return [
        {
          name: `editors, org ${organization.index}`,
          connections: 5,
          rate: 1,
          headers: asOwner,
          steps: editorSteps(runTag, organization.index, acknowledged),
        },
        {
          name: `imports, org ${organization.index}`,
          connections: 1,
          rate: 1,
          headers: asOwner,
          steps: importSteps(runTag, organization.index, acknowledged),
        },
        {
          name: `MCP agent, org ${organization.index}`,
          connections: 1,
          rate: 2,
          headers: { ...browser, ...mcpHeaders(organization.apiKey) },
          steps: mcpSteps(runTag, organization.index, acknowledged),
        },
      ]
    }),
  ]
}

export function connectionCount(scenarios: Scenario[]): number {
  return scenarios.reduce((sum, scenario) => sum + scenario.connections, 0)
}
