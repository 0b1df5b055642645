import { describe, expect, it } from 'vitest'
import {
  currencyForLocale,
  formatPrice,
  memberLimitOf,
  type Plan,
  periodAmount,
  planById,
  plans,
  yearlySavingPercent,
} from '#/lib/plans'

const pricedPlan = (id: Plan['id'], monthly: number, yearly: number, perSeat = false): Plan => ({
  id,
  prices: { USD: { monthly, yearly }, CNY: { monthly: monthly * 7, yearly: yearly * 7 } },
  perSeat,
  highlighted: false,
  limits: { members: 10, aiRequestsPerMonth: 1 },
})

describe('plans and prices', () => {
  it('offers Free, Pro and Team, with a free plan that costs nothing in every currency', () => {
    expect(plans.map((plan) => plan.id)).toEqual(['free', 'pro', 'team'])
    expect(planById('free').prices).toEqual({ USD: { monthly: 0, yearly: 0 }, CNY: { monthly: 0, yearly: 0 } })
  })

  it('limits Free most; Team has as many members as seats', () => {
    expect(planById('free').limits.members).toBeLessThan(planById('pro').limits.members as number)
    expect(memberLimitOf(planById('team'), 7)).toBe(7)
    expect(memberLimitOf(planById('pro'), 7)).toBe(planById('pro').limits.members)
    expect(planById('free').limits.aiRequestsPerMonth).toBeLessThan(planById('pro').limits.aiRequestsPerMonth)
  })

  it('charges Team per seat and Pro once', () => {
    expect(periodAmount(planById('team'), 'monthly', 'USD', 3)).toBe(planById('team').prices.USD.monthly * 3)
    expect(periodAmount(planById('pro'), 'yearly', 'CNY', 3)).toBe(planById('pro').prices.CNY.yearly)
  })

  it('shows yuan in Chinese and dollars in English', () => {
    expect(currencyForLocale('zh')).toBe('CNY')
    expect(currencyForLocale('en')).toBe('USD')
  })

  it('advertises the smallest saving of yearly billing, rounded down', () => {
    const planList = [pricedPlan('pro', 1000, 10000), pricedPlan('team', 1000, 9000, true)] // 16.7 % and 25 %
    expect(yearlySavingPercent(planList)).toBe(16)
    expect(yearlySavingPercent([])).toBe(0)
  })

  it('formats prices for each language without needless decimals', () => {
    expect(formatPrice(1900, 'en-US')).toBe('$19')
    expect(formatPrice(1583, 'en-US')).toBe('$15.83')
    expect(formatPrice(1900, 'zh-CN')).toBe('US$19')
    expect(formatPrice(12900, 'zh-CN', 'CNY')).toBe('¥129')
  })
})
