import { m } from '#/paraglide/messages'
import { planApps } from '#/plan-apps.gen'
import type { AppPlanLimit, PlanAppManifest } from './app-manifest'
import { formatFileSize } from './file-size'
import type { Locale } from './i18n'

/** The limits the installed apps add to the plans (their plans.ts), in the order the apps are listed. */
export const appPlanLimits: readonly AppPlanLimit[] = (planApps as readonly PlanAppManifest[]).flatMap(
  (app) => app.limits,
)

/** An app's limit by its name in the Billing overview, if an installed app has it. */
export function appPlanLimit(name: string): AppPlanLimit | undefined {
  return appPlanLimits.find((limit) => limit.name === name)
}

/** An amount of the limit written out in this Intl locale: a number, or a size; unlimited in words. */
export function writtenAmount(limit: Pick<AppPlanLimit, 'unit'>, value: number | null, intl: string, locale?: Locale) {
  if (value === null) return m.docs_plans_unlimited({}, locale ? { locale } : undefined)
  return limit.unit === 'bytes' ? formatFileSize(value, intl) : new Intl.NumberFormat(intl).format(value)
}

/** How a plan change that would leave the organization over an app's limit is refused: `PLAN_TOO_SMALL_FOR_<NAME>`. */
export function planTooSmallCode(name: string): `PLAN_TOO_SMALL_FOR_${string}` {
  return `PLAN_TOO_SMALL_FOR_${name.replace(/[A-Z]/g, '_$&').toUpperCase()}`
}
