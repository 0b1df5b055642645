import { locales } from '#/lib/i18n'
import { listPageNumber } from '#/lib/list-schemas'
import { billingIntervals, currencies, paidPlanIds, seatLimits } from '#/lib/plans'
import { recordId } from '#/lib/stored-text'
import { z } from '#/lib/zod'

const seats = z
  .number('validation_seats_invalid')
  .int('validation_seats_invalid')
  .min(seatLimits.min, 'validation_seats_invalid')
  .max(seatLimits.max, 'validation_seats_invalid')

export const checkoutInput = z.object({
  planId: z.enum(paidPlanIds, 'validation_plan_invalid'),
  interval: z.enum(billingIntervals, 'validation_plan_invalid'),
  currency: z.enum(currencies, 'validation_currency_invalid'),
  /** Team only; Pro is one price whatever the members. */
  seats: seats.optional(),
  /** The language of the checkout page and of the pages it returns to. */
  locale: z.enum(locales).default('en'),
})
export type CheckoutInput = z.input<typeof checkoutInput>

/** A plan, interval or seat change to price: Team's seats default to the current seats (at least the members). */
export const previewChangeInput = z.object({
  planId: z.enum(paidPlanIds, 'validation_plan_invalid'),
  interval: z.enum(billingIntervals, 'validation_plan_invalid'),
  seats: seats.optional(),
})

/**
 * What the customer confirmed: the instant the preview was priced for and the amount it showed. The change is made
 * as of that instant, and refused if it would now charge anything else.
 */
const confirmation = {
  prorationDate: z.date('validation_plan_change_stale'),
  expectedAmountDue: z.number('validation_plan_change_stale').int('validation_plan_change_stale').min(0),
}

export const changePlanInput = previewChangeInput.extend(confirmation)

export const previewSeatsInput = z.object({ seats })
export const changeSeatsInput = previewSeatsInput.extend(confirmation)

export const portalInput = z.object({ locale: z.enum(locales).default('en') })

export const cancelInput = z.object({ cancelAtPeriodEnd: z.boolean() })

/** A provider event's id as the provider wrote it (`evt_…` at Stripe). */
export const replayEventInput = z.object({ id: recordId() })

export const localCheckoutInput = z.object({ id: recordId() })

export const settleLocalCheckoutInput = localCheckoutInput.extend({
  outcome: z.enum(['pay', 'pay_later', 'fail', 'cancel']),
})

/** The checkout page's form: seats are typed as text and checked as a whole number in range. */
export const checkoutFormSchema = z.object({
  interval: z.enum(billingIntervals, 'validation_plan_invalid'),
  currency: z.enum(currencies, 'validation_currency_invalid'),
  seats: z
    .string()
    .trim()
    .regex(/^\d{1,4}$/, 'validation_seats_invalid')
    .refine((value) => Number(value) >= seatLimits.min && Number(value) <= seatLimits.max, 'validation_seats_invalid'),
})

export const seatsFieldSchema = z.object({ seats: checkoutFormSchema.shape.seats })

const ordersPageSize = z
  .number('validation_list_page_size_invalid')
  .int('validation_list_page_size_invalid')
  .min(1, 'validation_list_page_size_invalid')
  .max(100, 'validation_list_page_size_invalid')

/** A page of the orders list; without one, the first ten. */
export const orderListInput = z
  .object({ page: listPageNumber.default(1), limit: ordersPageSize.default(10) })
  .default({ page: 1, limit: 10 })

/** The order whose receipt is opened. */
export const receiptInput = z.object({ orderId: recordId() })
