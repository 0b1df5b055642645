import { describeError, fieldErrorsOf, translateMessage } from '#/lib/errors'
import { m } from '#/paraglide/messages'
import { maxRangeDays } from './date-range'

// The range's own refusals, which the schema names by key (the page checks the range before asking, so the server
// only sends these for a hand-made request).
const rangeMessages: Record<string, (() => string) | undefined> = {
  dashboard_range_inverted: m.dashboard_range_inverted,
  dashboard_range_too_long: () => m.dashboard_range_too_long({ days: String(maxRangeDays) }),
}

/** The translation of a range problem's key (the range's own, or a shared validation message). */
export function rangeProblemText(key: string): string {
  return rangeMessages[key]?.() ?? translateMessage(key)
}

/** What to tell the reader about a failed dashboard query, translated. */
export function describeDashboardError(error: unknown): string {
  const firstFieldError = Object.values(fieldErrorsOf(error)).find((list) => list?.length)?.[0]
  const rangeMessage = firstFieldError ? rangeMessages[firstFieldError] : undefined
  return rangeMessage ? rangeMessage() : describeError(error)
}
