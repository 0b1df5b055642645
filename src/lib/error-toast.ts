import { toast } from 'sonner'
import { apps } from '#/apps.gen'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { appErrorOf, describeError } from './errors'

/** Where the plan is upgraded, when an installed app sells plans (billing). */
const upgradePage = apps.find((app) => app.planPages)?.planPages?.upgrade

/** A plan's limit comes with a way past it: the page where the plan is upgraded. */
export function upgradeActionFor(code: string | undefined) {
  if (!code?.startsWith('PLAN_LIMIT_') || !upgradePage) return undefined
  return {
    action: {
      label: m.plan_limit_upgrade(),
      onClick: () => window.location.assign(localizeHref(upgradePage)),
    },
  }
}

/** Tells the user why a call failed, with an upgrade button when a plan's limit was the reason. */
export function toastError(error: unknown) {
  toast.error(describeError(error), upgradeActionFor(appErrorOf(error)?.appCode))
}
