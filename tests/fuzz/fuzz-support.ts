// What every fuzz test shares: how many cases to run, the invariant every answer must keep, a cheap fingerprint of
// the database to prove that refused changes wrote nothing, and the tally `npm run fuzz` prints at the end.
import { appendFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { Database, DatabaseEngine } from '#/server/db/client'
import { sqlRows } from '#/server/db/raw-sql'
import { engines } from '../integration/test-databases'

/** Cases per target: 100 in `npm test`, FUZZ_RUNS (1,000 by default) in `npm run fuzz`. */
export const fuzzRuns = Number(process.env.FUZZ_RUNS ?? 100)

/** Each test's time limit grows with its cases: the limit is there for a hung case, not for a long run. */
export const fuzzTimeout = (targets = 1) => 60_000 + targets * fuzzRuns * 250

/** A fixed seed unless one is given, so a failure seen in CI replays the same on a laptop (FUZZ_SEED to vary it). */
export const fuzzSeed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 2026_11_25

/** Where each target's count is appended, one JSON line per target, for scripts/fuzz.ts to sum up. */
const tallyFile = process.env.FUZZ_TALLY_FILE

/**
 * Runs one property with the suite's number of runs and seed, then records the count for the target. A target fuzzed
 * on each engine (`engine`) draws other cases on each, from the seed plus the engine's place in the list. In `npm test`
 * (no FUZZ_RUNS) the engines share the target's cases, 50 each on PGlite and PostgreSQL: 100 different cases, as on one
 * engine, in half the time the same 100 on both took. `npm run fuzz` runs FUZZ_RUNS on each.
 */
export async function fuzz<Ts extends [unknown, ...unknown[]]>(
  target: string,
  property: fc.IAsyncPropertyWithHooks<Ts>,
  options: { runs?: number; engine?: DatabaseEngine } = {},
): Promise<void> {
  const runs = options.runs ?? fuzzRuns
  const shared = options.engine !== undefined && process.env.FUZZ_RUNS === undefined
  const numRuns = shared ? Math.ceil(runs / engines.length) : runs
  const seed = fuzzSeed + (options.engine === undefined ? 0 : engines.indexOf(options.engine))
  let cases = 0
  const counted = property.afterEach(() => {
    cases += 1
  })
  const details = await fc.check(counted, { numRuns, seed, endOnFailure: false })
  if (details.failed) {
    // fast-check's own report carries the shrunk counter-example and the seed and path to replay it.
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
    throw new Error(`fuzz target ${target} failed: ${cause}\n${fc.defaultReportMessage(details)}`)
  }
  if (tallyFile) {
    mkdirSync(path.dirname(tallyFile), { recursive: true })
    appendFileSync(tallyFile, `${JSON.stringify({ target, cases: details.numRuns, calls: cases })}\n`)
  }
}

/** What an answer must never show: SQL, query parameters, a stack, or a path on the server. */
const leaks: [RegExp, string][] = [
  [/\bselect\s+["a-z*]/i, 'query text (select)'],
  [/\binsert into\b/i, 'query text (insert into)'],
  [/\bupdate\s+"[a-z_]+"\s+set\b/i, 'query text (update)'],
  [/\bdelete from\b/i, 'query text (delete from)'],
  [/Failed query/i, 'a failed query'],
  [/\bparams:/i, 'query parameters'],
  [/\n\s{2,}at\s/, 'a stack trace'],
  [/\bat .*\((?:file:\/\/)?\/[^)]*:\d+:\d+\)/, 'a stack frame'],
  [/\/work\/|\/home\/|\/node_modules\/|\/src\/(server|features|lib|routes)\//, 'an internal path'],
  [
    /\b(?:duplicate key value|violates (?:foreign key|not-null|check|unique) constraint|relation "[a-z_]+")/i,
    'database error text',
  ],
]

export interface ObservedAnswer {
  status: number
  text: string
}

/** Reads an answer whole, as text: what the client would see. */
export async function observe(response: Response): Promise<ObservedAnswer> {
  return { status: response.status, text: await response.text() }
}

/**
 * The invariant for every target: never a 5xx (503 is allowed only with Retry-After: the database being down is
 * not the input's fault, and these tests keep it up, so it does not happen), and nothing internal in the answer.
 */
export function assertSafeAnswer(target: string, answer: ObservedAnswer, input: unknown): void {
  const shown = () => `${target} answered ${answer.status} to ${describeInput(input)}:\n${answer.text.slice(0, 2000)}`
  if (answer.status >= 500) throw new Error(`5xx: ${shown()}`)
  // An answer may repeat what the caller sent (a preview of their file, a model quoting the question): text that was
  // in the input is theirs, not the server's.
  const sent = describeInput(input, Number.POSITIVE_INFINITY)
  for (const [pattern, what] of leaks) {
    const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`)
    for (const match of readableParts(answer.text).flatMap((text) => [...text.matchAll(global)])) {
      if (!sent.includes(match[0]) && !sent.includes(JSON.stringify(match[0]).slice(1, -1))) {
        throw new Error(`the answer shows ${what}: ${shown()}`)
      }
    }
  }
}

/**
 * What a reader of the answer sees: a streamed model answer (the AI SDK's `data: {"type":"text-delta",…}` events) is
 * judged as the text its deltas make and, apart, as its framing; a word cut across two deltas is one word again, and
 * JSON quotes between deltas do not make words of their own.
 */
function readableParts(text: string): string[] {
  const deltas: string[] = []
  const framing = text.replace(/^data: (\{"type":"text-delta".*\})$/gm, (line, json: string) => {
    try {
      deltas.push(String((JSON.parse(json) as { delta?: unknown }).delta ?? ''))
      return 'data: {"type":"text-delta"}'
    } catch {
      return line
    }
  })
  return deltas.length > 0 ? [framing, deltas.join('')] : [text]
}

/** A short, printable description of an input (a megabyte string is named by its length, not printed). */
export function describeInput(input: unknown, maxLength = 500): string {
  try {
    const text = fc.stringify(input)
    return text.length > maxLength ? `${text.slice(0, maxLength)}… (${text.length} characters)` : text
  } catch {
    return String(input)
  }
}

/**
 * Tables that legitimately change when a request is refused: rate-limit counters, failed sign-in throttles (the
 * per-account limit counts refusals by design), and the migrations journal.
 */
const volatileTables = new Set(['rate_limits', 'auth_rate_limits', 'sign_in_throttles', '__drizzle_migrations'])

/**
 * Rows fingerprinted without the columns that every use refreshes, refused or not: a session's expiry (sliding) and
 * an API key's usage counters (a key is counted when it is presented, whatever the call asks), a code's attempts.
 */
const rowExpressions: Record<string, string> = {
  sessions: `(t.id || t.token || t.user_id)`,
  // A wrong one-time code counts against its code (stored in the value) by design: the code row itself must stay.
  verifications: `(t.id || t.identifier || t.expires_at::text)`,
  api_keys: `(t.id || t.key || t.reference_id || t.enabled::text || coalesce(t.permissions, '') || coalesce(t.expires_at::text, ''))`,
}

/**
 * Row count and an md5 over every row of every table, in one statement: cheap enough to take once per batch of
 * refused changes.
 */
export async function fingerprint(db: Database): Promise<Record<string, string>> {
  const tables = await sqlRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )
  const parts = tables
    .filter((table) => !volatileTables.has(table.name))
    .map(
      (table) =>
        `select '${table.name}' as name, count(*)::text || ':' || coalesce(md5(string_agg(${
          rowExpressions[table.name] ?? 't::text'
        }, '|' order by t::text)), '') as digest from "${table.name}" t`,
    )
  const rows = await sqlRows<{ name: string; digest: string }>(db, sql.raw(parts.join(' union all ')))
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]))
}

/** The tables whose fingerprint differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name])
}

/**
 * Watches a run of changes for refused ones that wrote anyway. The fingerprint is taken once per batch: a batch in
 * which every change was refused must leave the database as the batch found it; a batch with an accepted change
 * just starts the next batch from where it ended.
 */
export function refusalWatch(db: Database, target: string, options: { batchSize?: number; mayChange?: string[] } = {}) {
  const batchSize = options.batchSize ?? 50
  const mayChange = new Set(options.mayChange ?? [])
  let baseline: Record<string, string> | undefined
  let accepted = false
  let inBatch = 0
  let refusedInputs: unknown[] = []
  const close = async () => {
    const current = await fingerprint(db)
    if (baseline && !accepted && inBatch > 0) {
      const changed = changedTables(baseline, current).filter((name) => !mayChange.has(name))
      if (changed.length > 0) {
        throw new Error(
          `${target}: ${inBatch} refused changes still changed ${changed.join(', ')}; inputs:\n${refusedInputs
            .map(describeInput)
            .join('\n')}`,
        )
      }
    }
    baseline = current
    accepted = false
    inBatch = 0
    refusedInputs = []
  }
  return {
    async start() {
      baseline = await fingerprint(db)
    },
    /** Records one change's outcome; every `batchSize` changes, checks the batch. */
    async record(status: number, input: unknown) {
      if (status < 400) accepted = true
      else refusedInputs.push(input)
      inBatch += 1
      if (inBatch >= batchSize) await close()
    },
    finish: close,
  }
}
