// A route the fuzzer attacks (tests/fuzz/api-routes.test.ts): the core's are listed there, an installed app's in its
// own src/features/<app>/tests/route-fuzz-targets.ts, found by file name, so a removed app takes its targets with it.
import type fc from 'fast-check'
import type { Database } from '#/server/db/client'

export interface RouteFuzzTarget {
  /** What the failure names: method, path and what varies. */
  target: string
  path: (extra: string) => string
  methods: string[]
  /** Answers one request as the route's handler does, `extra` being the fuzzed path parameter. */
  call: (request: Request, extra: string) => Promise<Response>
  body: fc.Arbitrary<unknown>
  /**
   * Makes a record of the fuzzer's organization (a book) whose id the path parameter then often is, so the route is
   * fuzzed past its lookup too.
   */
  record?: () => Promise<string>
}

/** What the fuzzer's set-up gives an app's targets. */
export interface RouteFuzzContext {
  db: () => Database
  /** A new client address per call, so no rate limit ends the run early. */
  nextIp: () => string
  /** The fake model provider's address. */
  aiUrl: () => string
  /** The origin the app trusts. */
  origin: string
  /** The fuzzer's organization and the person who owns it (and sends the requests). */
  organization: () => { id: string; ownerId: string }
}

/** The module an app's targets live in. */
export interface RouteFuzzTargets {
  routeFuzzTargets: (context: RouteFuzzContext) => RouteFuzzTarget[]
}
