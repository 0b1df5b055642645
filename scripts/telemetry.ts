// OpenTelemetry traces (issue 28): started before the app is loaded, so that the PostgreSQL, Redis and fetch
// instrumentations patch those libraries as the app loads them. Nothing is loaded unless OTEL_EXPORTER_OTLP_ENDPOINT
// (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: with tracing off the app's spans go to OpenTelemetry's no-op
// tracer, and no library is patched.

interface Telemetry {
  shutdown(): Promise<void>
}

function isHttpUrl(value: string | undefined): boolean {
  if (!value) return false
  try {
    return /^https?:$/.test(new URL(value).protocol)
  } catch {
    return false
  }
}

export async function startTelemetry(env: NodeJS.ProcessEnv): Promise<Telemetry | undefined> {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT
  // A malformed value is reported by the app's own environment check, which stops the server naming it.
  if (!endpoint || !isHttpUrl(endpoint)) return undefined
  const [
    { NodeSDK },
    { OTLPTraceExporter },
    { PgInstrumentation },
    { IORedisInstrumentation },
    { UndiciInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@opentelemetry/instrumentation-undici'),
  ])
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || 'hatch',
    // OTLP over HTTP, to OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces (the exporter reads the OTEL_EXPORTER_OTLP_*
    // variables: endpoint, headers, timeout).
    traceExporter: new OTLPTraceExporter(),
    // Traces only: the metrics are Prometheus's (/api/metrics), the logs go to standard output.
    logRecordProcessors: [],
    instrumentations: [
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
    ],
  })
  sdk.start()
  return sdk
}
