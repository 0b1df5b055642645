import { toast } from 'sonner'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { appErrorOf, describeError } from './errors'

/** A plan's limit comes with a way past it: the billing page, where the plan is upgraded. */
export function upgradeActionFor(code: string | undefined) {
  if (!code?.startsWith('PLAN_LIMIT_')) return undefined
  return {
    action: {
      label: m.plan_limit_upgrade(),
      onClick: () => window.location.assign(localizeHref('/my-orders')),
    },
  }
}

/** Tells the user why a call failed, with an upgrade button when a plan's limit was the reason. */
export function toastError(error: unknown) {
  toast.error(describeError(error), upgradeActionFor(appErrorOf(error)?.appCode))
}
