import { z } from '#/lib/zod'
import { granularities, maxRangeDays, rangeLength, rangePresets } from './date-range'

/** A day as the date input gives it (YYYY-MM-DD), a real calendar date. */
const day = z.iso.date('validation_date_invalid')

/**
 * Which days the dashboard covers, in its time zone, and how they are grouped. An inverted or over-long range is a
 * field error (BAD_REQUEST), keyed for translation like every schema message.
 */
export const dashboardRangeInput = z
  .object({
    from: day,
    to: day,
    granularity: z.enum(granularities).default('day'),
  })
  .superRefine((range, context) => {
    if (range.from > range.to) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'dashboard_range_inverted' })
    } else if (rangeLength(range.from, range.to) > maxRangeDays) {
      context.addIssue({ code: 'custom', path: ['from'], message: 'dashboard_range_too_long' })
    }
  })
export type DashboardRangeInput = z.input<typeof dashboardRangeInput>

/** The page's address: a mangled parameter is dropped (and its default used) rather than failing the page. */
export const dashboardSearch = z.object({
  range: z.enum(rangePresets).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  granularity: z.enum(granularities).optional().catch(undefined),
})
export type DashboardSearch = z.output<typeof dashboardSearch>
