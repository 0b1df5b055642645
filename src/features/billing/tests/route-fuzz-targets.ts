// Billing's route for the fuzzer (tests/fuzz/api-routes.test.ts): the payment providers' webhook, under any provider
// name, with hostile bodies.
import fc from 'fast-check'
import { encoded, hostileText, hostileValue } from '../../../../tests/fuzz/arbitraries'
import type { RouteFuzzTarget } from '../../../../tests/fuzz/route-targets'
import { Route as billingWebhookRoute } from '../routes/api/billing/webhook.$provider'

export function routeFuzzTargets(): RouteFuzzTarget[] {
  return [
    {
      target: 'POST /api/billing/webhook/{provider}',
      path: (provider) => `/api/billing/webhook/${encoded(provider)}`,
      methods: ['POST'],
      call: (request, provider) => {
        const post = (
          billingWebhookRoute.options.server as {
            handlers: { POST: (context: { request: Request; params: { provider: string } }) => Promise<Response> }
          }
        ).handlers.POST
        return post({ request, params: { provider } })
      },
      body: fc.record({
        id: hostileText,
        type: fc.constantFrom('checkout.session.completed', 'invoice.paid', 'customer.subscription.updated', 'x'),
        data: fc.oneof(fc.record({ object: fc.dictionary(fc.string(), hostileValue) }), hostileValue),
      }),
    },
  ]
}
