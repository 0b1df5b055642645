import { z } from '#/lib/zod'

/** Limits every beacon must keep; anything else is junk and gets 400. */
export const beaconLimits = { maxBodyBytes: 2048, maxPathLength: 500, maxUtmLength: 100, maxDurationMs: 86_400_000 }

const pageViewId = z.string().regex(/^[A-Za-z0-9_-]{8,32}$/)
const pageUrl = z.url({ protocol: /^https?$/ }).max(2000)

/** What /api/insights.js sends. */
export const beaconInput = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('pageview'),
    id: pageViewId,
    url: pageUrl,
    entry: z.boolean().default(true),
    referrer: z.union([z.literal(''), z.url().max(2000)]).default(''),
    language: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/)
      .max(35)
      .optional(),
    screenWidth: z.number().int().min(0).max(20_000).optional(),
  }),
  z.strictObject({
    type: z.literal('leave'),
    id: pageViewId,
    url: pageUrl,
    durationMs: z.number().int().min(0).max(beaconLimits.maxDurationMs),
  }),
])
export type BeaconInput = z.infer<typeof beaconInput>

export type NotCountedReason = 'bot' | 'do-not-track' | 'global-privacy-control' | 'prefetch'

/**
 * Why a request must not be counted, from its headers alone; undefined when it may be. `isBot` is the bot detector
 * (passed in so this file stays free of server packages).
 */
export function notCountedReason(
  headers: Headers,
  isBot: (userAgent: string) => boolean,
): NotCountedReason | undefined {
  const userAgent = headers.get('user-agent') ?? ''
  if (userAgent.trim() === '' || isBot(userAgent)) return 'bot'
  if (headers.get('dnt') === '1') return 'do-not-track'
  if (headers.get('sec-gpc') === '1') return 'global-privacy-control'
  const purpose = `${headers.get('sec-purpose') ?? ''} ${headers.get('purpose') ?? ''} ${headers.get('x-moz') ?? ''}`
  if (/prefetch|prerender/i.test(purpose)) return 'prefetch'
  return undefined
}

/** Screen size classes (CSS pixels of the screen's width). */
export function screenClassOf(width: number | undefined): 'phone' | 'tablet' | 'laptop' | 'desktop' | null {
  if (width === undefined || width === 0) return null
  if (width < 640) return 'phone'
  if (width < 1024) return 'tablet'
  if (width < 1440) return 'laptop'
  return 'desktop'
}

/** A host without its `www.` (the same site either way). */
function bareHost(host: string): string {
  return host.toLowerCase().replace(/^www\./, '')
}

export interface PageLocation {
  path: string
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
}

/** The page's path without its query, and the campaign parameters kept apart; undefined when it breaks a limit. */
export function pageLocationOf(url: URL): PageLocation | undefined {
  if (url.pathname.length > beaconLimits.maxPathLength) return undefined
  const utm = (name: string) => url.searchParams.get(name)?.trim().toLowerCase() || null
  const location = {
    path: url.pathname,
    utmSource: utm('utm_source'),
    utmMedium: utm('utm_medium'),
    utmCampaign: utm('utm_campaign'),
  }
  const tooLong = [location.utmSource, location.utmMedium, location.utmCampaign].some(
    (value) => value !== null && value.length > beaconLimits.maxUtmLength,
  )
  return tooLong ? undefined : location
}

/**
 * Where a page load came from: another site's host, '' for a direct visit, or null when it is not a page load's first
 * view (a client-side navigation) or came from the site itself, which is no referrer.
 */
export function referrerHostOf(input: { entry: boolean; referrer: string; siteHost: string }): string | null {
  if (!input.entry) return null
  if (input.referrer === '') return ''
  const host = bareHost(new URL(input.referrer).host)
  return host === bareHost(input.siteHost) ? null : host
}
