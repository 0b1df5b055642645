import { inspect } from 'node:util'

// Shapes a secret takes in text the server might print: a failed query's parameters (a session token, a verification
// value, an email), a token or code in a link or form, an API key, a session cookie, credentials in a URL.
const redactions: [RegExp, string][] = [
  // Drizzle's "Failed query: <sql>\nparams: <values>": the SQL helps, the values may be anyone's secrets.
  [/\bparams: [^\n]*/g, 'params: [not logged]'],
  [/\b((?:__Secure-|__Host-)?hatch\.[\w-]+=)[^;\s'",]+/g, '$1[not logged]'],
  [/\b((?:token|code|otp|secret|password|key)=)[^&\s'",]+/gi, '$1[not logged]'],
  [/\bhatch_[A-Za-z0-9]{8,}/g, 'hatch_[not logged]'],
  [/\b(bearer|basic) [\w.~+/=-]{8,}/gi, '$1 [not logged]'],
  [/(\b[a-z][\w+.-]*:\/\/[^\s/:@'"]+:)[^\s/@'"]+@/gi, '$1[not logged]@'],
]

/** The text with anything shaped like a secret replaced by `[not logged]`. */
export function withoutSecrets(text: string): string {
  let safe = text
  for (const [pattern, replacement] of redactions) safe = safe.replace(pattern, replacement)
  return safe
}

/**
 * An error as a log line may show it: its name, message and stack, and those of its causes, with the values a failed
 * query carried (and anything else shaped like a secret) left out. Printing the error object itself would also show
 * its `params`, a PostgreSQL error's `detail` ("Key (token)=(…) already exists") and whatever else it holds.
 */
export function loggableError(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) return withoutSecrets(typeof error === 'string' ? error : inspect(error, { depth: 2 }))
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at '))
  const code = (error as { code?: unknown }).code
  // The parameters end a failed query's message and may span lines (a text value with line breaks).
  const message = withoutSecrets(error.message.replace(/\nparams: [\s\S]*$/, '\nparams: [not logged]'))
  const lines = [
    `${error.name}${typeof code === 'string' || typeof code === 'number' ? ` [${code}]` : ''}: ${message}`,
    ...frames,
  ]
  if (error.cause !== undefined && depth < 4) lines.push(`caused by: ${loggableError(error.cause, depth + 1)}`)
  return lines.join('\n')
}

/** What a logger may print of each argument it was given: errors as loggableError, other values with no secrets. */
export function loggable(value: unknown): unknown {
  if (value instanceof Error) return loggableError(value)
  if (typeof value === 'string') return withoutSecrets(value)
  if (value === null || typeof value !== 'object') return value
  return withoutSecrets(inspect(value, { depth: 2 }))
}
