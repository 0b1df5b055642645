/** What the page needs of an EventSource (a test passes its own). */
export interface EventSourceLike {
  readonly readyState: number
  onerror: ((event: Event) => void) | null
  addEventListener(type: string, listener: () => void): void
  close(): void
}

/** EventSource.CLOSED, named here so that the module also loads where EventSource does not exist (the server). */
const closed = 2

/**
 * How long a page waits to ask again after its stream was refused: the server's Retry-After for "too many streams"
 * (a place a server held when it died is freed within a minute). EventSource cannot read an answer's headers.
 */
export const refusedStreamRetryMs = 60_000

export interface LiveStreamOptions {
  url: string
  /** Events by name, each with what to do when it comes (`ready` comes on every connection). */
  on: Record<string, () => void>
  /** Told true once a connection is ready, false when the stream was refused (the page then reads now and then). */
  onLive?: (live: boolean) => void
  open?: (url: string) => EventSourceLike
  retryMs?: number
}

/**
 * Follows the person's live updates until the returned function is called. EventSource reconnects by itself after a
 * drop, but gives up for good on any answer other than a 200 stream (a 429 while the person holds too many streams, a
 * 502 while a server restarts): then a new one is opened after {@link refusedStreamRetryMs}, a little spread so that
 * a person's many tabs do not all come back at once.
 */
export function followLiveStream(options: LiveStreamOptions): () => void {
  const open = options.open ?? ((url: string) => new EventSource(url))
  const retryMs = options.retryMs ?? refusedStreamRetryMs
  let source: EventSourceLike | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const connect = () => {
    retry = undefined
    const current = open(options.url)
    source = current
    current.addEventListener('ready', () => options.onLive?.(true))
    for (const [event, listener] of Object.entries(options.on)) current.addEventListener(event, listener)
    current.onerror = () => {
      if (current.readyState !== closed || stopped || retry) return
      options.onLive?.(false)
      retry = setTimeout(connect, retryMs * (1 + Math.random() / 4))
    }
  }
  connect()
  return () => {
    stopped = true
    if (retry) clearTimeout(retry)
    source?.close()
  }
}
