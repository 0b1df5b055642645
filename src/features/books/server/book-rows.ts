import { randomBytes } from 'node:crypto'

let lastMillis = 0
let sequence = 0
/** Ids that sort in creation order (as UUIDv7 does), so books added in the same instant keep their order. */
export function newBookId(): string {
  const now = Date.now()
  sequence = now === lastMillis ? sequence + 1 : 0
  lastMillis = now
  return `${now.toString(16).padStart(12, '0')}${sequence.toString(16).padStart(6, '0')}${randomBytes(7).toString('hex')}`
}

/** A unique index refused the row (PostgreSQL's 23505), wherever the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error || typeof current === 'object'; ) {
    if (!current) return false
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}
