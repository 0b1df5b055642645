import { appErrorOf, describeError } from '#/lib/errors'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

export function isPlanLimitError(error: unknown): boolean {
  return appErrorOf(error)?.appCode.startsWith('PLAN_LIMIT_') ?? false
}

/**
 * A plan's limit met inside a dialog: said there, with the way past it. (A toast's button cannot be reached while a
 * modal dialog holds the focus and the pointer.)
 */
export function PlanLimitNotice({ error }: { error: unknown }) {
  if (!isPlanLimitError(error)) return null
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
      data-testid="plan-limit"
    >
      {describeError(error)}{' '}
      <a className="font-medium underline underline-offset-4" href={localizeHref('/my-orders')}>
        {m.plan_limit_upgrade()}
      </a>
    </p>
  )
}
