import { listPage, listPageSize, oneOf, searchParams, text } from '#/lib/url-search'
import { deliveryStatuses } from './events'

// The Webhooks page's address: the endpoint whose delivery log is open, and that log's filter and page. A mangled or
// outdated parameter is dropped rather than refused.
export const webhooksSearch = searchParams({
  endpoint: text(100),
  status: oneOf(deliveryStatuses),
  page: listPage,
  size: listPageSize,
})
export type WebhooksSearch = ReturnType<typeof webhooksSearch>

/** The delivery log's input for an address that names an endpoint. */
export function deliveriesInputOf(search: WebhooksSearch & { endpoint: string }) {
  return { endpointId: search.endpoint, status: search.status, page: search.page ?? 1, size: search.size ?? 25 }
}
