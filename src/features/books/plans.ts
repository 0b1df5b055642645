import { definePlanApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'
import { booksPerPlan } from './book-rules'

/** The live books an organization may keep on each plan. */
export const planApp = definePlanApp({
  name: 'books',
  limits: [
    {
      name: 'books',
      perPlan: booksPerPlan,
      unit: 'count',
      cardLine: (_planId, limit, value) =>
        value === null ? m.plan_feature_books_unlimited() : m.plan_feature_books({ count: limit }),
      docsColumn: { header: (locale) => m.docs_plans_books({}, { locale }), cell: (_planId, limit) => limit },
      usage: { label: m.billing_usage_books },
      reached: m.plan_limit_reached_books,
      over: m.plan_limit_over_books,
      downgrade: {
        blocked: m.billing_change_blocked_books,
        refused: m.error_code_PLAN_TOO_SMALL_FOR_BOOKS,
        manage: { to: '/console/books', label: m.billing_change_manage_books },
      },
    },
  ],
})
