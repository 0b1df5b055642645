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
  return limit.unit === 'bytes' ? formatFileSize(value, intl) : numberFormatIn(intl).format(value)
}

/** Made once per language: a new Intl.NumberFormat per figure showed in the console's render profile. */
const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormatIn(intl: string): Intl.NumberFormat {
  let format = numberFormats.get(intl)
  if (!format) {
    format = new Intl.NumberFormat(intl)
    numberFormats.set(intl, format)
  }
  return format
}

/** How a plan change that would leave the organization over an app's limit is refused: `PLAN_TOO_SMALL_FOR_<NAME>`. */
export function planTooSmallCode(name: string): `PLAN_TOO_SMALL_FOR_${string}` {
  return `PLAN_TOO_SMALL_FOR_${name.replace(/[A-Z]/g, '_$&').toUpperCase()}`
}
