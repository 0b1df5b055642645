import type { Database } from '../db/client'
import { analyticsEvents } from '../db/schema'

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
      const rows = batch.slice(start, start + this.options.maxBatch)
      try {
        await this.db.insert(analyticsEvents).values(rows)
      } catch (error) {
        // Analytics must never take the site down with it: a lost batch is logged and forgotten.
        console.error(`[analytics] could not store ${rows.length} events:`, (error as Error).message)
      }
    }
  }
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
