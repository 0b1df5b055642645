// Books' MCP tools for the fuzzer (tests/fuzz/api-routes.test.ts): hostile JSON-RPC calls of each tool.
import fc from 'fast-check'
import { answerMcpRequest } from '#/server/mcp'
import { hostileValue } from '../../../../tests/fuzz/arbitraries'
import type { RouteFuzzContext, RouteFuzzTarget } from '../../../../tests/fuzz/route-targets'
import { bookMcpTools } from '../server/mcp-tools'

export function routeFuzzTargets({ db, nextIp }: RouteFuzzContext): RouteFuzzTarget[] {
  return [
    {
      target: 'POST|GET|DELETE /api/mcp (book tools)',
      path: () => '/api/mcp',
      methods: ['POST', 'GET', 'DELETE'],
      call: (request) => answerMcpRequest(request, { db: db(), clientIp: nextIp(), toolSets: [bookMcpTools] }),
      body: fc.oneof(
        fc.record({
          jsonrpc: fc.constantFrom('2.0', '1.0', hostileValue),
          id: fc.oneof(fc.integer(), hostileValue),
          method: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'resources/list'),
          params: fc.oneof(
            fc.record({
              name: fc.constantFrom('list_books', 'get_book', 'create_book', 'nope'),
              arguments: fc.dictionary(fc.constantFrom('id', 'title', 'q', 'limit', 'cursor', 'authors'), hostileValue),
            }),
            hostileValue,
          ),
        }),
        fc.array(hostileValue, { maxLength: 3 }),
      ),
    },
  ]
}
