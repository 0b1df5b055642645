// Reading `npm audit --json` (report version 2) against the reviewed allow-list: which high or critical advisories
// block, which are accepted for now, and whether the registry answered at all. scripts/audit.ts runs it.

/** One advisory as npm audit lists it in a vulnerability's `via` (npm's documented report version 2). */
interface ViaAdvisory {
  source: number
  name: string
  title: string
  url: string
  severity: Severity
  range?: string
}

type Severity = 'info' | 'low' | 'moderate' | 'high' | 'critical'

interface AuditReport {
  auditReportVersion?: number
  vulnerabilities?: Record<string, { name: string; severity: Severity; via: (ViaAdvisory | string)[] }>
  /** Set instead of `vulnerabilities` when the registry answered the audit request with an error. */
  statusCode?: number
  message?: string
  error?: unknown
}

export interface AllowedAdvisory {
  /** The advisory's GHSA id (e.g. GHSA-xxxx-xxxx-xxxx) or its URL. */
  id: string
  package: string
  /** Why it cannot be fixed yet, and why it does not reach Hatch's users meanwhile. */
  reason: string
  /** When someone last checked that the reason still holds (YYYY-MM-DD). */
  reviewed: string
}

export interface Advisory {
  id: string
  package: string
  title: string
  url: string
  severity: Severity
}

export type AuditOutcome =
  | { kind: 'unavailable'; reason: string }
  | { kind: 'checked'; blocking: Advisory[]; allowed: Advisory[]; lower: Advisory[]; staleAllowances: string[] }

/** An allowance counts for this long after its review; then someone must look again. */
export const reviewValidDays = 180

const blockingSeverities = new Set<Severity>(['high', 'critical'])

/** The advisory id an allow-list may name: the GHSA id at the end of its URL, else npm's numeric source. */
function advisoryId(advisory: ViaAdvisory): string {
  return /GHSA-[\w-]+$/i.exec(advisory.url)?.[0] ?? String(advisory.source)
}

/** Problems with the allow-list itself: every entry must say what, why and when it was reviewed. */
export function allowListProblems(entries: unknown): string[] {
  if (!Array.isArray(entries)) return ['"advisories" must be a list']
  return entries.flatMap((entry, index) => {
    const problems: string[] = []
    const record = (entry ?? {}) as Record<string, unknown>
    for (const field of ['id', 'package', 'reason', 'reviewed'] as const) {
      if (typeof record[field] !== 'string' || (record[field] as string).trim() === '') {
        problems.push(`advisories[${index}].${field} is missing`)
      }
    }
    if (typeof record.reviewed === 'string' && Number.isNaN(Date.parse(`${record.reviewed}T00:00:00Z`))) {
      problems.push(`advisories[${index}].reviewed must be a date (YYYY-MM-DD)`)
    }
    return problems
  })
}

function isCurrent(entry: AllowedAdvisory, now: Date): boolean {
  const reviewed = Date.parse(`${entry.reviewed}T00:00:00Z`)
  return now.getTime() - reviewed <= reviewValidDays * 24 * 60 * 60 * 1000
}

/**
 * The decision on one `npm audit --json` output. High and critical advisories block unless an allow-list entry with
 * a current review names them (by GHSA id or URL, and package); lower ones are listed, not blocking.
 */
export function judgeAudit(output: string, allowList: readonly AllowedAdvisory[], now: Date): AuditOutcome {
  let report: AuditReport
  try {
    report = JSON.parse(output) as AuditReport
  } catch {
    throw new Error(`npm audit did not print a JSON report:\n${output.slice(0, 500)}`)
  }
  if (!report.vulnerabilities) {
    const status = report.statusCode ? `HTTP ${report.statusCode}` : 'no "vulnerabilities" in the report'
    return { kind: 'unavailable', reason: report.message ?? status }
  }
  const advisories = new Map<string, Advisory>()
  for (const vulnerability of Object.values(report.vulnerabilities)) {
    for (const via of vulnerability.via) {
      // A string names another vulnerable package; its own entry carries the advisory.
      if (typeof via === 'string') continue
      const id = advisoryId(via)
      advisories.set(`${id}|${via.name}`, {
        id,
        package: via.name,
        title: via.title,
        url: via.url,
        severity: via.severity,
      })
    }
  }
  const blocking: Advisory[] = []
  const allowed: Advisory[] = []
  const lower: Advisory[] = []
  const used = new Set<AllowedAdvisory>()
  for (const advisory of advisories.values()) {
    if (!blockingSeverities.has(advisory.severity)) {
      lower.push(advisory)
      continue
    }
    const allowance = allowList.find(
      (entry) =>
        (entry.id === advisory.id || entry.id === advisory.url) &&
        entry.package === advisory.package &&
        isCurrent(entry, now),
    )
    if (allowance) {
      used.add(allowance)
      allowed.push(advisory)
    } else blocking.push(advisory)
  }
  const staleAllowances = allowList
    .filter((entry) => !used.has(entry))
    .map((entry) =>
      isCurrent(entry, now)
        ? `${entry.id} (${entry.package}) is no longer reported: remove it from the allow-list`
        : `${entry.id} (${entry.package}) was last reviewed ${entry.reviewed}, over ${reviewValidDays} days ago: review it again`,
    )
  return { kind: 'checked', blocking, allowed, lower, staleAllowances }
}
