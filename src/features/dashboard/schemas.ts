import { z } from '#/lib/zod'
import { granularities, rangeProblem } from './date-range'

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
    const problem = rangeProblem(range.from, range.to)
    if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.message })
  })
export type DashboardRangeInput = z.input<typeof dashboardRangeInput>
