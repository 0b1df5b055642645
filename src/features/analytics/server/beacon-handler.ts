import { isbot } from 'isbot'
import type { Database } from '#/server/db/client'
import { getEnv } from '#/server/env'
import { getSiteSettings } from '#/server/settings'
import { clientIpOf } from '#/server/trpc/context'
import {
  beaconInput,
  beaconLimits,
  notCountedReason,
  pageLocationOf,
  referrerHostOf,
  screenClassOf,
} from '../beacon-rules'
import { BeaconRateLimiter } from './beacon-rate-limiter'
import { analyticsEventWriter } from './event-writer'
import { summarizeUserAgent } from './user-agent-summary'
import { databaseSalts, visitorIdToday } from './visitor-id'

const noStore = { 'Cache-Control': 'no-store' }
const answer = (status: number, message?: string) =>
  new Response(message ?? null, { status, headers: message ? { ...noStore, 'Content-Type': 'text/plain' } : noStore })

const rateLimiter = new BeaconRateLimiter()

/**
 * POST /api/insights. 202: counted (written with the next batch). 204: not counted by design (analytics off, a bot,
 * Do-Not-Track, Global Privacy Control, a prefetch). 400: junk, nothing stored. 429: too many from one address.
 */
export async function handleInsightsBeacon(request: Request, db: Database): Promise<Response> {
  const settings = await getSiteSettings(db)
  if (!settings.apps.analytics.enabled) return answer(204)
  if (notCountedReason(request.headers, isbot)) return answer(204)
  const ip = clientIpOf(request)
  if (!rateLimiter.allow(ip, getEnv().INSIGHTS_BEACONS_PER_MINUTE)) return answer(429, 'Too many beacons')

  const declaredLength = Number(request.headers.get('content-length') ?? 0)
  if (declaredLength > beaconLimits.maxBodyBytes) return answer(400, 'Beacon too large')
  const text = await request.text()
  if (Buffer.byteLength(text) > beaconLimits.maxBodyBytes) return answer(400, 'Beacon too large')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return answer(400, 'Beacon is not JSON')
  }
  const parsed = beaconInput.safeParse(json)
  if (!parsed.success) return answer(400, 'Invalid beacon')
  const beacon = parsed.data
  const pageUrl = new URL(beacon.url)
  // Beacons describe this site's pages only; another host's would be someone else's numbers. Behind a proxy that
  // rewrites Host, the request's host is the proxy's idea of it, so the public URL's host counts too.
  const siteHost = pageUrl.host
  if (siteHost !== new URL(request.url).host && siteHost !== new URL(getEnv().APP_URL).host) {
    return answer(400, 'Beacon for another site')
  }
  const location = pageLocationOf(pageUrl)
  if (!location) return answer(400, 'Path or campaign too long')

  const userAgent = request.headers.get('user-agent') ?? ''
  const arrivedAt = new Date()
  const visitorId = await visitorIdToday(databaseSalts(db), {
    now: arrivedAt,
    timeZone: settings.analyticsTimeZone,
    site: siteHost,
    ip,
    userAgent,
  })
  const agent = summarizeUserAgent(userAgent)
  // Stamped on arrival, not when the batch is written: the day an event counts for is the day its visitor id was made.
  const common = {
    occurredAt: arrivedAt,
    visitorId,
    pageViewId: beacon.id,
    path: location.path,
    browser: agent.browser,
    os: agent.os,
  }
  if (beacon.type === 'leave') {
    analyticsEventWriter(db).add({ ...common, kind: 'leave', durationMs: beacon.durationMs, device: agent.device })
  } else {
    analyticsEventWriter(db).add({
      ...common,
      kind: 'pageview',
      referrerHost: referrerHostOf({ entry: beacon.entry, referrer: beacon.referrer, siteHost }),
      utmSource: location.utmSource,
      utmMedium: location.utmMedium,
      utmCampaign: location.utmCampaign,
      language: beacon.language ?? null,
      screen: screenClassOf(beacon.screenWidth),
      device: agent.device,
    })
  }
  return answer(202)
}
