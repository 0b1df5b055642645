// The analytics' routes for the fuzzer (tests/fuzz/api-routes.test.ts): hostile beacons, and asking for the script
// in every way.
import fc from 'fast-check'
import { hostileText, hostileValue } from '../../../../tests/fuzz/arbitraries'
import type { RouteFuzzContext, RouteFuzzTarget } from '../../../../tests/fuzz/route-targets'
import { handleInsightsBeacon } from '../server/beacon-handler'
import { serveInsightsScript } from '../server/script-response'

export function routeFuzzTargets({ db }: RouteFuzzContext): RouteFuzzTarget[] {
  return [
    {
      target: 'POST /api/insights',
      path: () => '/api/insights',
      methods: ['POST'],
      call: (request) => handleInsightsBeacon(request, db()),
      body: fc.record({
        type: fc.constantFrom('pageview', 'event', 'vitals', 'x'),
        path: fc.oneof(fc.constant('/en/'), hostileText),
        referrer: fc.oneof(fc.webUrl(), hostileText),
        name: hostileText,
        value: hostileValue,
      }),
    },
    {
      target: 'GET /api/insights.js',
      path: () => '/api/insights.js',
      methods: ['GET'],
      call: async (request) => serveInsightsScript(request),
      body: fc.constant(undefined),
    },
  ]
}
