// Small readers shared by the providers' event modules: what a provider sends is JSON of unknown shape until read.
import { type Currency, currencies, type PaidPlanId, paidPlanIds } from '#/lib/plans'

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A non-empty string, or a number written as one (some providers send ids as numbers). */
export function text(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value)
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** An ISO date, or undefined for anything else (missing, null, not a date). */
export function dateOf(iso: unknown): Date | undefined {
  if (typeof iso !== 'string') return undefined
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? undefined : date
}

export function isPaidPlanId(value: unknown): value is PaidPlanId {
  return typeof value === 'string' && (paidPlanIds as readonly string[]).includes(value)
}

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (currencies as readonly string[]).includes(value)
}
