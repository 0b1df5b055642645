import { z } from '#/lib/zod'

/** The transaction Paddle.js is to open, as Paddle names it in the checkout link (`?_ptxn=txn_…`). */
export const paddleCheckoutInput = z.object({
  transactionId: z.string().regex(/^txn_[a-z0-9]{1,60}$/, 'validation_record_id_invalid'),
})
