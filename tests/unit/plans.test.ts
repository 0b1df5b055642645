import { describe, expect, it } from 'vitest'
import { formatPrice, type Plan, plans, yearlySavingPercent } from '#/lib/plans'

describe('plans and prices', () => {
  it('offers Free, Pro and Team, with a free plan that costs nothing', () => {
    expect(plans.map((plan) => plan.id)).toEqual(['free', 'pro', 'team'])
    expect(plans[0]?.prices).toEqual({ monthly: 0, yearly: 0 })
  })

  it('advertises the smallest saving of yearly billing, rounded down', () => {
    const planList: Plan[] = [
      { id: 'pro', prices: { monthly: 1000, yearly: 10000 }, perSeat: false, highlighted: false }, // 16.7 %
      { id: 'team', prices: { monthly: 1000, yearly: 9000 }, perSeat: true, highlighted: false }, // 25 %
    ]
    expect(yearlySavingPercent(planList)).toBe(16)
    expect(yearlySavingPercent([])).toBe(0)
  })

  it('formats prices for each language without needless decimals', () => {
    expect(formatPrice(1900, 'en-US')).toBe('$19')
    expect(formatPrice(1583, 'en-US')).toBe('$15.83')
    expect(formatPrice(1900, 'zh-CN')).toBe('US$19')
  })
})
