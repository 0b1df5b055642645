/**
 * Calendar arithmetic on days written `YYYY-MM-DD`, shared by the dashboard's procedures (bucketing) and its page
 * (presets). Days are calendar dates in the dashboard's time zone, so the arithmetic runs in UTC, where every day
 * has 24 hours: a daylight-saving change can never skip or repeat a day.
 */

export const granularities = ['day', 'week', 'month'] as const
export type Granularity = (typeof granularities)[number]

export const rangePresets = ['7d', '30d', '90d', '12m', 'custom'] as const
export type RangePreset = (typeof rangePresets)[number]

/** The longest range a dashboard query covers: two years, a leap day included. */
export const maxRangeDays = 731

const msPerDay = 86_400_000

function utcOf(day: string): number {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number)
  return Date.UTC(year, month - 1, date)
}

function dayOfUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

export function addDays(day: string, count: number): string {
  return dayOfUtc(utcOf(day) + count * msPerDay)
}

/** Days from `from` to `to`, both included (1 for a single day, 0 or less when inverted). */
export function rangeLength(from: string, to: string): number {
  return Math.round((utcOf(to) - utcOf(from)) / msPerDay) + 1
}

/** Why a range of real days cannot be asked for (a translation key), or nothing when it can. */
export function rangeProblem(from: string, to: string) {
  if (from > to) return { field: 'to', message: 'dashboard_range_inverted' } as const
  if (rangeLength(from, to) > maxRangeDays) return { field: 'from', message: 'dashboard_range_too_long' } as const
  return undefined
}

/** The Monday (ISO weeks) on or before `day`. */
export function startOfWeek(day: string): string {
  const weekday = new Date(utcOf(day)).getUTCDay()
  return addDays(day, -((weekday + 6) % 7))
}

export function startOfMonth(day: string): string {
  return `${day.slice(0, 7)}-01`
}

/** The day a calendar shows at `instant` in `timeZone`. */
export function todayIn(timeZone: string, instant: Date = new Date()): string {
  // The default zone needs no time zone rules at all, which spares a phone tens of milliseconds while the page loads.
  if (timeZone === 'UTC') return dayOfUtc(instant.getTime())
  const parts = dayFormatIn(timeZone).formatToParts(instant)
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

/**
 * One formatter per time zone, made once: building an Intl.DateTimeFormat was about 2% of a console page's render,
 * which asks for today several times. Time zones are a few hundred names, so the map stays small.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>()
function dayFormatIn(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    dayFormats.set(timeZone, format)
  }
  return format
}

export interface Bucket {
  /** The first day of the bucket inside the range (a week or month cut by the range starts at the range). */
  start: string
  /** Every day of the bucket inside the range. */
  days: string[]
}

/** The range cut into days, ISO weeks (Monday first) or calendar months; the first and last may be partial. */
export function bucketsOf(from: string, to: string, granularity: Granularity): Bucket[] {
  const buckets: Bucket[] = []
  const length = rangeLength(from, to)
  let current: Bucket | undefined
  let currentKey = ''
  for (let offset = 0; offset < length; offset++) {
    const day = addDays(from, offset)
    const key = granularity === 'day' ? day : granularity === 'week' ? startOfWeek(day) : startOfMonth(day)
    if (!current || key !== currentKey) {
      current = { start: day, days: [] }
      currentKey = key
      buckets.push(current)
    }
    current.days.push(day)
  }
  return buckets
}

/** The period of equal length just before the range, which the dashboard compares against. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const length = rangeLength(from, to)
  return { from: addDays(from, -length), to: addDays(from, -1) }
}

/** The days a preset covers, ending today; the 12-month preset starts at the first of a month, for monthly charts. */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, today: string): { from: string; to: string } {
  switch (preset) {
    case '7d':
      return { from: addDays(today, -6), to: today }
    case '30d':
      return { from: addDays(today, -29), to: today }
    case '90d':
      return { from: addDays(today, -89), to: today }
    case '12m': {
      const [year = 1970, month = 1] = today.split('-').map(Number)
      return { from: dayOfUtc(Date.UTC(year, month - 12, 1)), to: today }
    }
  }
}
