// What must never appear in a server log: the secrets a test run knows by value, and the shapes any secret takes
// (a session cookie, an API key, a token in a link, credentials in a URL), whoever's they are.

export interface KnownSecret {
  /** What it is, for the failure message (never the value itself). */
  what: string
  value: string
}

interface SecretShape {
  what: string
  pattern: RegExp
}

const secretShapes: SecretShape[] = [
  // Better Auth's cookies (prefix `hatch`, docs/decisions): the signed session token and the cached session.
  { what: 'a session cookie', pattern: /\b(?:__Secure-|__Host-)?hatch\.session_(?:token|data)\w*=[^;\s"',]{8,}/ },
  // A whole Cookie / Set-Cookie header, as a request or headers object would print it (`cookie: 'lang=en; …'`).
  { what: 'a Cookie header', pattern: /\b(?:set-)?cookie['"]?\s*(?:[:=]|=>)\s*['"{]?[^'"\s]*=/i },
  { what: 'an Authorization header', pattern: /\bauthorization['"]?\s*[:=]\s*['"]?(?:bearer|basic)\s+[\w.~+/=-]{8,}/i },
  // API keys are `hatch_` and 64 letters (the list shows only `hatch_` plus 4 characters, which is no key).
  { what: 'an API key', pattern: /\bhatch_[A-Za-z0-9]{16,}/ },
  { what: 'an x-api-key header', pattern: /\bx-api-key['"]?\s*[:=]\s*['"]?[\w-]{8,}/i },
  // Verification, reset, magic-link and invitation links carry their token in the query or the path.
  { what: 'a token in a URL', pattern: /[?&](?:token|code|otp)=[\w.~%-]{8,}/i },
  { what: 'a token= value', pattern: /\btoken=[\w.~%-]{8,}/i },
  { what: 'a reset or verification link', pattern: /\/(?:reset-password|verify-email|magic-link\/verify)\/[\w-]{16,}/ },
  { what: 'credentials in a URL', pattern: /\b[a-z][\w+.-]*:\/\/[^\s/:@'"]+:[^\s/@'"]+@/i },
]

export interface LogFinding {
  what: string
  /** The line it is on, with the secret itself replaced, so the failure message does not spread it further. */
  line: number
  excerpt: string
}

function maskedExcerpt(line: string, start: number, length: number): string {
  const from = Math.max(0, start - 40)
  return `${line.slice(from, start)}[…${length} characters…]${line.slice(start + length, start + length + 40)}`
}

/**
 * Every place in the log where a known secret, or something shaped like one, appears. An empty list means the log is
 * clean. Known values shorter than six characters are ignored: they would match ordinary words and numbers.
 */
export function secretsInLog(log: string, known: readonly KnownSecret[]): LogFinding[] {
  const findings: LogFinding[] = []
  const lines = log.split('\n')
  const values = known.filter((secret) => secret.value.length >= 6)
  for (const [index, line] of lines.entries()) {
    for (const secret of values) {
      let at = line.indexOf(secret.value)
      while (at !== -1) {
        // A short code inside a longer number (a timestamp, a port) is not the code.
        const digitsOnly = /^\d+$/.test(secret.value)
        const inLongerNumber =
          digitsOnly && (/\d/.test(line[at - 1] ?? '') || /\d/.test(line[at + secret.value.length] ?? ''))
        if (!inLongerNumber) {
          findings.push({ what: secret.what, line: index + 1, excerpt: maskedExcerpt(line, at, secret.value.length) })
          break
        }
        at = line.indexOf(secret.value, at + 1)
      }
    }
    for (const shape of secretShapes) {
      const match = shape.pattern.exec(line)
      if (match) {
        findings.push({ what: shape.what, line: index + 1, excerpt: maskedExcerpt(line, match.index, match[0].length) })
      }
    }
  }
  return findings
}

/**
 * The passwords the test files type or send, found in their source: a new test's password is checked without anyone
 * listing it (`password: 'cobol-1959'`, `newPassword = '…'`, `passwords = ['…', '…']`).
 */
export function passwordsInSource(source: string): string[] {
  const found = new Set<string>()
  for (const match of source.matchAll(/\b\w*password\w*['"]?\s*[:=]\s*'([^'\n]{6,})'/gi)) found.add(match[1] ?? '')
  for (const list of source.matchAll(/\b\w*passwords\s*=\s*\[([^\]]*)\]/gi)) {
    for (const item of (list[1] ?? '').matchAll(/'([^'\n]{6,})'/g)) found.add(item[1] ?? '')
  }
  // A label such as 'Password' or 'New password' is text on the screen, not a secret.
  return [...found].filter((value) => value !== '' && !/^[A-Z][a-z ]*$/.test(value))
}

/** The one-time codes and link tokens in an email's text: what a reader of the log must not be able to use. */
export function secretsInEmail(text: string): string[] {
  const found = new Set<string>()
  for (const match of text.matchAll(/(?<![\d\w])\d{6,8}(?![\d\w])/g)) found.add(match[0])
  for (const link of text.match(/https?:\/\/\S+/g) ?? []) {
    let url: URL
    try {
      url = new URL(link)
    } catch {
      continue
    }
    for (const [name, value] of url.searchParams) {
      if (/token|code|otp/i.test(name) && value.length >= 6) found.add(value)
    }
    // An id or token in the path (an invitation, a reset link); a page name such as `accept-invitation` has no digit.
    for (const segment of url.pathname.split('/')) if (segment.length >= 16 && /\d/.test(segment)) found.add(segment)
  }
  return [...found]
}
