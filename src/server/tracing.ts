import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'

/**
 * The app's own spans (issue 28): a request, a tRPC procedure, a job, an email sent. Database, Redis and outgoing
 * fetch calls get theirs from the instrumentations scripts/telemetry.ts starts. Without OTEL_EXPORTER_OTLP_ENDPOINT
 * no tracer is registered and these calls reach OpenTelemetry's no-op tracer, which records nothing.
 */
const tracer = trace.getTracer('hatch')

const headerGetter = {
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
  keys: (headers: Headers) => [...headers.keys()],
}

/** Runs `work` with `span`, which ends with it and is marked failed (with the exception) when it throws. */
async function endingWith<T>(span: Span, work: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await work(span)
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error))
    span.setStatus({ code: SpanStatusCode.ERROR })
    throw error
  } finally {
    span.end()
  }
}

/** Runs `work` in a span that ends with it, marked failed (with the exception) when it throws. */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Record<string, string | number | boolean> },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, options, (span) => endingWith(span, work))
}

/**
 * The span of one request to the app, continuing the caller's trace when a proxy or client sent `traceparent`.
 * `answered` runs inside the span once the answer is known (what it logs names the trace) and returns the span's
 * name: the route the request was counted under.
 */
export function inRequestSpan(
  request: Request,
  attributes: Record<string, string>,
  work: () => Promise<Response>,
  answered: (response: Response) => string,
): Promise<Response> {
  const parent = propagation.extract(context.active(), request.headers, headerGetter)
  return tracer.startActiveSpan(
    request.method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, ...attributes } },
    parent,
    (span) =>
      endingWith(span, async () => {
        const response = await work()
        span.updateName(answered(response))
        span.setAttribute('http.response.status_code', response.status)
        if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
        return response
      }),
  )
}

/** The trace a log line belongs to, when tracing is on. */
export function currentTraceId(): string | undefined {
  const span = trace.getActiveSpan()
  return span?.isRecording() ? span.spanContext().traceId : undefined
}

export { SpanKind }
