import { describe, expect, it } from 'vitest'
import { checkoutSearch } from '../search'

describe("the checkout page's URL parameters", () => {
  it('falls back to a plan and an interval on the checkout page, and checks the seats', () => {
    expect(checkoutSearch({})).toEqual({ plan: 'pro', interval: 'monthly' })
    expect(checkoutSearch({ plan: 'team', interval: 'yearly', currency: 'CNY', seats: '12' })).toEqual({
      plan: 'team',
      interval: 'yearly',
      currency: 'CNY',
      seats: 12,
    })
    expect(checkoutSearch({ plan: 'enterprise', seats: 1, currency: 'EUR' })).toEqual({
      plan: 'pro',
      interval: 'monthly',
    })
  })
})
