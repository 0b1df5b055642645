import { currentIntlLocale, getLocale } from '#/lib/i18n'
import { currencyForLocale, formatPrice } from '#/lib/plans'
import { m } from '#/paraglide/messages'
import type { Granularity } from './date-range'

// Creating an Intl formatter costs far more than using one, and a dashboard formats hundreds of numbers.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, create: (locale: string) => T): T {
  const locale = currentIntlLocale()
  const fullKey = `${locale}|${key}`
  let formatter = formatters.get(fullKey) as T | undefined
  if (!formatter) {
    formatter = create(locale)
    formatters.set(fullKey, formatter)
  }
  return formatter
}

export function formatCount(value: number): string {
  return cached('count', (locale) => new Intl.NumberFormat(locale)).format(value)
}

/** A change against the previous period, signed ("+12%", "−3%"); null when there was nothing to compare with. */
export function changeRatio(current: number, previous: number): number | null {
  if (previous === 0) return null
  return (current - previous) / previous
}

export function formatChange(ratio: number): string {
  return cached(
    'change',
    (locale) =>
      new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }),
  ).format(ratio)
}

/** An amount in the currency's minor unit (cents, fen), as the language writes money. */
export function formatMoney(minorUnits: number, currency: string): string {
  return formatPrice(minorUnits, currentIntlLocale(), currency)
}

/** No money yet, still written as money ("$0.00"), in the currency the reader's language sees first. */
export function formatNoMoney(): string {
  const currency = currencyForLocale(getLocale())
  return new Intl.NumberFormat(currentIntlLocale(), { style: 'currency', currency, minimumFractionDigits: 2 }).format(0)
}

/** Time on page: seconds under a minute, else minutes and seconds. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return m.dashboard_not_measured()
  const totalSeconds = Math.round(ms / 1000)
  const minutes = Math.floor(totalSeconds / 60)
  const seconds = totalSeconds % 60
  if (minutes === 0) return m.dashboard_duration_seconds({ seconds: formatCount(seconds) })
  return m.dashboard_duration_minutes({ minutes: formatCount(minutes), seconds: formatCount(seconds) })
}

// Days are calendar dates in the dashboard's time zone: formatted in UTC, a date never shifts by the reader's zone.
function utcDate(day: string): Date {
  return new Date(`${day}T00:00:00Z`)
}

/** A full date ("Nov 3, 2026" / "2026年11月3日"). */
export function formatDay(day: string): string {
  return cached(
    'day',
    (locale) => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' }),
  ).format(utcDate(day))
}

/** A bucket's start as a chart's axis shows it: day and month, or month and year for monthly buckets. */
export function formatBucketShort(day: string, granularity: Granularity): string {
  if (granularity === 'month') {
    return cached(
      'month',
      (locale) => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric', month: 'short' }),
    ).format(utcDate(day))
  }
  return cached(
    'short',
    (locale) => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', day: 'numeric' }),
  ).format(utcDate(day))
}

/** A bucket's start as a table or tooltip names it. */
export function formatBucket(day: string, granularity: Granularity): string {
  if (granularity === 'month') return formatBucketShort(day, 'month')
  if (granularity === 'week') return m.dashboard_week_of({ date: formatDay(day) })
  return formatDay(day)
}
