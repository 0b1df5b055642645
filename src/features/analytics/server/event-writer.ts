import type { Database } from '#/server/db/client'
import { log } from '#/server/log'
import { analyticsEvents } from './schema'

export type AnalyticsEventRow = typeof analyticsEvents.$inferInsert

/**
 * Beacons are answered at once and written in batches: one multi-row insert per second (or per `maxBatch` events),
 * so a burst of beacons costs the database a few statements instead of one each, and page serving does not wait.
 * Past `maxQueued` unwritten events (the database is down or far behind) new ones are dropped, not buffered forever.
 */
export class AnalyticsEventWriter {
  #queue: AnalyticsEventRow[] = []
  #timer: ReturnType<typeof setTimeout> | undefined
  #writing: Promise<void> = Promise.resolve()
  dropped = 0

  constructor(
    private readonly db: Database,
    private readonly options: { maxBatch: number; flushMs: number; maxQueued: number } = {
      maxBatch: 500,
      flushMs: 1000,
      maxQueued: 50_000,
    },
  ) {}

  get queued(): number {
    return this.#queue.length
  }

  add(event: AnalyticsEventRow): void {
    if (this.#queue.length >= this.options.maxQueued) {
      this.dropped++
      return
    }
    this.#queue.push(event)
    if (this.#queue.length >= this.options.maxBatch) void this.flush()
    else if (!this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), this.options.flushMs)
      this.#timer.unref()
    }
  }

  /** Writes everything queued so far; resolves once it is in the database. */
  flush(): Promise<void> {
    clearTimeout(this.#timer)
    this.#timer = undefined
    const batch = this.#queue
    this.#queue = []
    // Writes run one after another, so a slow batch never races the next one.
    this.#writing = this.#writing.then(() => this.#write(batch))
    return this.#writing
  }

  async #write(batch: AnalyticsEventRow[]): Promise<void> {
    for (let start = 0; start < batch.length; start += this.options.maxBatch) {
      await this.#insert(batch.slice(start, start + this.options.maxBatch))
    }
  }

  /**
   * One multi-row insert. When the database refuses the rows' data (one event it cannot store), the batch is split
   * in halves and each half tried again, so only the bad events are lost, never the good ones stored beside them.
   * Any other failure (the database is down) loses the batch: analytics must never take the site down with it.
   */
  async #insert(rows: AnalyticsEventRow[]): Promise<void> {
    if (rows.length === 0) return
    try {
      await this.db.insert(analyticsEvents).values(rows)
    } catch (error) {
      if (rows.length > 1 && isDataError(error)) {
        const half = Math.ceil(rows.length / 2)
        await this.#insert(rows.slice(0, half))
        await this.#insert(rows.slice(half))
        return
      }
      if (!isDataError(error) && this.#requeue(rows)) {
        log().warn(
          { events: rows.length, sqlState: sqlStateOf(error) ?? null },
          'analytics events could not be stored yet; trying again',
        )
        return
      }
      this.dropped += rows.length
      log().error({ events: rows.length, sqlState: sqlStateOf(error) ?? null }, 'analytics events could not be stored')
    }
  }

  /**
   * Events already acknowledged (202) go back to the front of the queue when the database could not take them (busy,
   * away): the next flush tries again. False when they no longer fit under `maxQueued`.
   */
  #requeue(rows: AnalyticsEventRow[]): boolean {
    if (this.#queue.length + rows.length > this.options.maxQueued) return false
    this.#queue = [...rows, ...this.#queue]
    if (!this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), this.options.flushMs)
      this.#timer.unref()
    }
    return true
  }
}

/** The SQLSTATE of a database error, wherever the driver or Drizzle put it. */
function sqlStateOf(error: unknown): string | undefined {
  for (let current = error; typeof current === 'object' && current !== null; ) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** Refused for what the rows hold (class 22, data exception; class 23, integrity constraint), not for the server. */
function isDataError(error: unknown): boolean {
  const state = sqlStateOf(error)
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'))
}

const writers = new WeakMap<Database, AnalyticsEventWriter>()

export function analyticsEventWriter(db: Database): AnalyticsEventWriter {
  let writer = writers.get(db)
  if (!writer) {
    writer = new AnalyticsEventWriter(db)
    writers.set(db, writer)
  }
  return writer
}
