import UAParser from 'ua-parser-js'

export interface UserAgentSummary {
  browser: string | null
  os: string | null
  device: 'desktop' | 'mobile' | 'tablet'
}

// Visitors share a few hundred user agents: parsing each once keeps a beacon's work in microseconds.
const cache = new Map<string, UserAgentSummary>()
const cacheLimit = 5000

/** Browser, OS and kind of device; the user agent itself is never stored. */
export function summarizeUserAgent(userAgent: string): UserAgentSummary {
  const known = cache.get(userAgent)
  if (known) return known
  const parsed = new UAParser(userAgent).getResult()
  const type = parsed.device.type
  const summary: UserAgentSummary = {
    browser: parsed.browser.name ?? null,
    os: parsed.os.name ?? null,
    device: type === 'mobile' || type === 'wearable' ? 'mobile' : type === 'tablet' ? 'tablet' : 'desktop',
  }
  if (cache.size >= cacheLimit) cache.clear()
  cache.set(userAgent, summary)
  return summary
}
