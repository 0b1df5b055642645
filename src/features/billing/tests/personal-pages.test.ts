import { describe, expect, it } from 'vitest'
import { cacheControlFor, personalCacheControl } from '#/server/cache-control'

describe("billing's pages and caches", () => {
  it('keeps one buyer’s orders, receipts, payment and checkout pages out of every shared cache', () => {
    for (const path of [
      '/en/my-orders',
      '/my-orders',
      '/zh/pay/order_123',
      '/en/receipts/0b7c6a52-5d2e-4f0e-9d1a-2f7c1e3b4a90',
      '/en/checkout',
    ]) {
      expect(cacheControlFor(path, 'public, max-age=600'), path).toBe(personalCacheControl)
    }
    expect(cacheControlFor('/en/docs/billing', 'public, no-cache'), 'its docs page is for everyone').toBeUndefined()
  })
})
