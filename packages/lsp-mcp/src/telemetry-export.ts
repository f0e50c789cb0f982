import { configureTelemetry, telemetryInstruments } from '@codeseam/lsp'
import { context, metrics, propagation, trace } from '@opentelemetry/api'

import { serverInfo } from './server-info.js'
import { otelSignals, type OtelFlags, type OtelSignals } from './telemetry-settings.js'

/**
 * `--otel-endpoint` / `OTEL_EXPORTER_OTLP_*ENDPOINT`: registers the OpenTelemetry SDK (a tracer provider with a
 * batch span processor, a meter provider with a periodic reader, both exporting OTLP/HTTP JSON) so the spans
 * and metrics codeseam emits through `@opentelemetry/api` leave the process. The SDK and the exporters are
 * imported only here and only when export is on: the bundled CLI keeps them in chunks of their own, and a run
 * without export never reads them.
 *
 * The exporters read the standard `OTEL_EXPORTER_OTLP_*` variables themselves (headers, timeouts,
 * compression, per-signal endpoints); `--otel-endpoint` is the generic base URL and wins over them. An
 * unreachable collector costs the tool calls nothing (export is batched, in the background): its first
 * failure is said once on stderr, later ones are not, and at exit codeseam waits for the last batch at most
 * {@link exitFlushMs}.
 */

/** Options for {@link startTelemetryExport}. */
export interface TelemetryExportOptions extends OtelFlags {
  /** Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv
  /** Where the one line about a failing collector goes (default: stderr, prefixed `codeseam:`). */
  readonly log?: (line: string) => void
}

/** A running export. */
export interface TelemetryExport {
  /** Exports every span ended and every metric recorded so far (bounded by {@link exitFlushMs}). */
  flush(): Promise<void>
  /** Flushes, then stops the providers and unregisters them. Idempotent; never rejects. */
  shutdown(): Promise<void>
}

/** The longest the exit waits for the collector (an unreachable one must not hold the process). */
export const exitFlushMs = 3_000

function numberFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name]?.trim()
  if (text === undefined || text === '') return undefined
  const value = Number(text)
  return Number.isFinite(value) && value >= 0 ? value : undefined
}

/**
 * A CommonJS package imported dynamically: bundled, its exports are the namespace's `default` only (esbuild
 * adds the named ones for static imports alone); unbundled, Node gives both.
 */
function commonJs<T extends object>(namespace: T): T {
  const exports = (namespace as { default?: unknown }).default
  return exports !== null && typeof exports === 'object' ? (exports as T) : namespace
}

/** Settles within `ms` whatever `work` does: true when it finished in time (its rejection is swallowed: export is best effort). */
function bounded(work: () => Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    timer.unref()
    let running: Promise<unknown>
    try {
      running = work()
    } catch {
      running = Promise.resolve()
    }
    const done = () => {
      clearTimeout(timer)
      resolve(true)
    }
    running.then(done, done)
  })
}

/**
 * Starts exporting when export is on (`--otel-endpoint`, or an `OTEL_EXPORTER_OTLP_*ENDPOINT` variable, and
 * not `OTEL_SDK_DISABLED=true`); resolves to undefined otherwise, having loaded nothing. Call it once per
 * process, before the work whose spans it should carry.
 */
export async function startTelemetryExport(options: TelemetryExportOptions = {}): Promise<TelemetryExport | undefined> {
  const env = options.env ?? process.env
  const signals = otelSignals(options, env)
  if (signals === undefined) return undefined
  const log = options.log ?? ((line: string) => process.stderr.write(`codeseam: ${line}\n`))
  try {
    return await register(options, signals, env, log)
  } catch (error) {
    // Export is an extra: a part that fails to load or start leaves the command as it would run without it.
    log(`OpenTelemetry export could not start (${error instanceof Error ? error.message : String(error)}); going on without it`)
    return undefined
  }
}

async function register(
  options: TelemetryExportOptions,
  signals: OtelSignals,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<TelemetryExport> {
  const [hooks, core, resources] = await Promise.all([
    import('@opentelemetry/context-async-hooks').then(commonJs),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ])
  configureTelemetry({ includePaths: options.includePaths === true })

  const base = options.endpoint?.replace(/\/+$/, '')
  const target = (signal: 'traces' | 'metrics'): string =>
    base !== undefined
      ? `${base}/v1/${signal}`
      : env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]?.trim() ||
        `${env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim()} (+ /v1/${signal})`
  // The first failure of each signal is said once; a collector that is down would otherwise fill stderr.
  const reported = new Set<string>()
  const onResult = (signal: 'traces' | 'metrics', result: { code: number; error?: Error }) => {
    if (result.code === core.ExportResultCode.SUCCESS || reported.has(signal)) return
    reported.add(signal)
    log(
      `exporting ${signal} to ${target(signal)} failed (${result.error?.message ?? 'unknown error'}); codeseam goes on without them and does not say this again`,
    )
  }

  const resource = resources
    .defaultResource()
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    .merge(
      resources.resourceFromAttributes({
        'service.name': env['OTEL_SERVICE_NAME']?.trim() || 'codeseam',
        'service.version': serverInfo.version,
      }),
    )

  // The context manager and the propagator: a client's `traceparent` (tools/call `_meta`) becomes the parent of
  // the call's spans, across the call's awaits.
  context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator())

  const stops: Array<{ flush: () => Promise<unknown>; shutdown: () => Promise<unknown> }> = []
  if (signals.traces) {
    const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
    ])
    class Exporter extends OTLPTraceExporter {
      override export(...[items, done]: Parameters<InstanceType<typeof OTLPTraceExporter>['export']>): void {
        super.export(items, (result) => {
          onResult('traces', result)
          done(result)
        })
      }
    }
    const exporter = new Exporter(base === undefined ? {} : { url: `${base}/v1/traces` })
    // The processor reads OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_MAX_QUEUE_SIZE, … itself.
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] })
    trace.setGlobalTracerProvider(provider)
    stops.push({ flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() })
  }
  if (signals.metrics) {
    const [{ MeterProvider, PeriodicExportingMetricReader }, { OTLPMetricExporter }] = await Promise.all([
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/exporter-metrics-otlp-http'),
    ])
    class Exporter extends OTLPMetricExporter {
      override export(...[items, done]: Parameters<InstanceType<typeof OTLPMetricExporter>['export']>): void {
        super.export(items, (result) => {
          onResult('metrics', result)
          done(result)
        })
      }
    }
    const exporter = new Exporter(base === undefined ? {} : { url: `${base}/v1/metrics` })
    // The 2.x reader reads no variables: the standard ones, by hand (the timeout may not exceed the interval).
    const interval = numberFrom(env, 'OTEL_METRIC_EXPORT_INTERVAL') ?? 60_000
    const timeout = Math.min(numberFrom(env, 'OTEL_METRIC_EXPORT_TIMEOUT') ?? 30_000, interval)
    const provider = new MeterProvider({
      resource,
      readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: interval, exportTimeoutMillis: timeout })],
    })
    metrics.setGlobalMeterProvider(provider)
    // The instruments are made again for this provider, so the observable gauges attach to it.
    telemetryInstruments()
    stops.push({ flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() })
  }

  let stopping: Promise<void> | undefined
  const late = (what: string) => (finished: boolean) => {
    if (!finished) log(`the collector did not take ${what} within ${exitFlushMs / 1000} s; codeseam did not wait longer`)
  }
  return {
    flush: () => bounded(() => Promise.all(stops.map((s) => s.flush())), exitFlushMs).then(late('the pending spans and metrics')),
    shutdown() {
      // A client's follow-up SIGTERM (sent after a grace period) must not cut the last export short: it is
      // bounded by exitFlushMs anyway. A second Ctrl-C still ends the process at once.
      if (stopping !== undefined) return stopping
      const hold = () => {}
      for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, hold)
      stopping = bounded(() => Promise.all(stops.map((s) => s.shutdown())), exitFlushMs)
        .then(late('the last spans and metrics at exit'))
        .then(() => {
          for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.off(signal, hold)
          trace.disable()
          metrics.disable()
          propagation.disable()
          context.disable()
        })
      return stopping
    },
  }
}
