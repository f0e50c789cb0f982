// Telemetry overhead (issue 18): what codeseam's spans and metrics add to a tool call, measured in one process
// on a warm in-process host. Each series alternates instrumented calls (`configureTelemetry({ enabled: true })`)
// with plain ones (`enabled: false`: every `inSpan` runs its body directly, no metric is recorded), the same
// query in both halves of a pair, the order random per pair; the figure is the median of the paired differences.
// - "API, no SDK": only @opentelemetry/api, no SDK registered (the default for a library user);
// - "with exporter": an SDK registered in process — BatchSpanProcessor + OTLP/HTTP trace exporter, MeterProvider
//   + PeriodicExportingMetricReader + OTLP/HTTP metric exporter, both posting to a sink on 127.0.0.1 that
//   discards what it gets, and the AsyncLocalStorage context manager — for both arms of the series.
// Whatever spans codeseam emits at run time are measured (a counting span processor says how many per call).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'

import { configureTelemetry, telemetryInstruments } from '@codeseam/lsp'
import { context, metrics, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base'

import { startHostedLsp, type HostedLsp } from '../layers/ctx-lsp-layer.js'
import type { ReadLayer } from '../layers/read-layer.js'
import { toolsLayer } from '../layers/tools-layer.js'
import { untilCorrect } from '../measure.js'
import type { ReadQuery } from '../read-mix.js'
import type { TelemetryOverheadResult, TelemetrySeriesResult } from '../report.js'
import { medianInterval95, round, roundSummary, summarize } from '../statistics.js'
import type { GeneratedWorkspace } from '../workspace-generator.js'

/** The targets for the median added latency per call, ms. */
export const telemetryTargets = { 'API, no SDK': 0.05, 'with exporter': 0.3 } as const

/** How often the exporters send during the series (defaults: spans 5 s, metrics 60 s — too rare to land in it). */
const spanExportDelayMs = 1000
const metricExportIntervalMs = 1000

export interface TelemetryOverheadOptions {
  readonly workspace: GeneratedWorkspace
  /** The native read mix (the derived operation left out, as the layers' "all" figures do). */
  readonly queries: ReadonlyArray<ReadQuery>
  /** Timed pairs per series. */
  readonly pairs: number
  /** Untimed pairs before each series (JIT, the SDK's first spans and instruments). */
  readonly warmupPairs?: number
  readonly log: (message: string) => void
}

/** A small deterministic generator (mulberry32), so every run draws the same orders. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Counts the spans started, by name (a span processor, so it sees exactly what the SDK records). */
class CountingSpanProcessor implements SpanProcessor {
  started = 0
  readonly byName = new Map<string, number>()
  onStart(span: { readonly name: string }): void {
    this.started++
    this.byName.set(span.name, (this.byName.get(span.name) ?? 0) + 1)
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve()
  }
  shutdown(): Promise<void> {
    return Promise.resolve()
  }
}

/** An OTLP/HTTP endpoint on 127.0.0.1 that reads and discards every POST, counting requests and bytes. */
async function startSink(): Promise<{ url: string; counts: { traces: number; metrics: number; bytes: number }; close(): Promise<void> }> {
  const counts = { traces: 0, metrics: 0, bytes: 0 }
  const server: Server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      counts.bytes += chunk.length
    })
    request.on('end', () => {
      if (request.url?.startsWith('/v1/traces') === true) counts.traces++
      else if (request.url?.startsWith('/v1/metrics') === true) counts.metrics++
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{}')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The SDK of the "with exporter" series, registered globally; `dispose` flushes, shuts it down and unregisters it. */
async function registerSdk(counter: CountingSpanProcessor) {
  const sink = await startSink()
  const contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [
      counter,
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${sink.url}/v1/traces` }), { scheduledDelayMillis: spanExportDelayMs }),
    ],
  })
  trace.setGlobalTracerProvider(tracerProvider)
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${sink.url}/v1/metrics` }),
        exportIntervalMillis: metricExportIntervalMs,
      }),
    ],
  })
  metrics.setGlobalMeterProvider(meterProvider)
  return {
    sink,
    async dispose() {
      try {
        await tracerProvider.forceFlush()
        await meterProvider.forceFlush()
        await tracerProvider.shutdown()
        await meterProvider.shutdown()
      } finally {
        trace.disable()
        metrics.disable()
        context.disable()
        propagation.disable()
        contextManager.disable()
        await sink.close()
      }
    },
  }
}

/** Switches codeseam's telemetry and rebuilds its instruments for that state, outside any timed call. */
function setTelemetry(enabled: boolean): void {
  configureTelemetry({ enabled })
  // telemetryInstruments() caches the instruments of one meter provider and makes new ones when that changes;
  // switching back and forth every call would make the first call after each switch pay for them, which no
  // real process does (it configures once). So they are made here, untimed.
  telemetryInstruments()
}

interface Arm {
  ms: number[]
  /** This process's CPU time during the call (user + system, every thread), ms. */
  cpuMs: number[]
  wrong: number
}

/** One series: warm-up pairs, then `pairs` timed pairs, rotating over the mix. */
async function runSeries(
  name: TelemetrySeriesResult['series'],
  layer: ReadLayer,
  queries: ReadonlyArray<ReadQuery>,
  pairs: number,
  warmupPairs: number,
  counter: CountingSpanProcessor | undefined,
  exported: (() => NonNullable<TelemetrySeriesResult['exported']>) | undefined,
): Promise<TelemetrySeriesResult> {
  const draw = random(name === 'API, no SDK' ? 18 : 1818)
  const instrumented: Arm = { ms: [], cpuMs: [], wrong: 0 }
  const plain: Arm = { ms: [], cpuMs: [], wrong: 0 }
  const perOperation = new Map<string, { added: number[]; spans: number[]; names: Map<string, number> }>()
  const spans: number[] = []
  const names = new Map<string, number>()
  let spansDuringPlainCalls = 0
  const call = async (query: ReadQuery, enabled: boolean, timed: boolean) => {
    setTelemetry(enabled)
    const before = counter?.started ?? 0
    const namesBefore = counter === undefined ? undefined : new Map(counter.byName)
    const cpu = process.cpuUsage()
    const started = performance.now()
    const answer = await layer.run(query)
    const ms = performance.now() - started
    const cpuUsed = process.cpuUsage(cpu)
    const emitted = (counter?.started ?? 0) - before
    if (timed) {
      const arm = enabled ? instrumented : plain
      arm.ms.push(ms)
      arm.cpuMs.push((cpuUsed.user + cpuUsed.system) / 1000)
      if (!layer.verify(query, answer)) arm.wrong++
      if (!enabled) spansDuringPlainCalls += emitted
      else if (counter !== undefined && namesBefore !== undefined) {
        spans.push(emitted)
        const own = perOperation.get(query.operation)!
        own.spans.push(emitted)
        for (const [span, count] of counter.byName) {
          const delta = count - (namesBefore.get(span) ?? 0)
          if (delta === 0) continue
          names.set(span, (names.get(span) ?? 0) + delta)
          own.names.set(span, (own.names.get(span) ?? 0) + delta)
        }
      }
    }
    return ms
  }
  for (const query of queries) perOperation.set(query.operation, { added: [], spans: [], names: new Map() })
  for (let index = 0; index < warmupPairs + pairs; index++) {
    const query = queries[index % queries.length]!
    const timed = index >= warmupPairs
    const instrumentedFirst = draw() < 0.5
    let on: number
    let off: number
    if (instrumentedFirst) {
      on = await call(query, true, timed)
      off = await call(query, false, timed)
    } else {
      off = await call(query, false, timed)
      on = await call(query, true, timed)
    }
    if (timed) perOperation.get(query.operation)!.added.push(on - off)
  }
  setTelemetry(true)
  const added = instrumented.ms.map((ms, index) => ms - plain.ms[index]!)
  const median = (values: ReadonlyArray<number>) => summarize(values).median
  const perCall = (counts: Map<string, number>, calls: number) =>
    Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)).map(([span, count]) => [span, round(count / calls, 2)]))
  return {
    series: name,
    pairs,
    added: roundSummary(summarize(added)),
    addedMedianInterval: (({ low, high }) => ({ low: round(low), high: round(high) }))(medianInterval95(added)),
    addedCpu: roundSummary(summarize(instrumented.cpuMs.map((ms, index) => ms - plain.cpuMs[index]!))),
    instrumented: roundSummary(summarize(instrumented.ms)),
    plain: roundSummary(summarize(plain.ms)),
    byOperation: Object.fromEntries(
      [...perOperation].map(([operation, own]) => [
        operation,
        {
          added: roundSummary(summarize(own.added)),
          ...(counter === undefined ? {} : { spansPerCall: median(own.spans), spanNames: perCall(own.names, own.spans.length) }),
        },
      ]),
    ),
    ...(counter === undefined
      ? {}
      : {
          spansPerCall: { median: median(spans), min: Math.min(...spans), max: Math.max(...spans) },
          spansDuringPlainCalls,
          spanNames: perCall(names, spans.length),
        }),
    ...(exported === undefined ? {} : { exported: exported() }),
    wrong: { instrumented: instrumented.wrong, plain: plain.wrong },
    target: telemetryTargets[name],
  }
}

/**
 * Runs both series on a host of its own over `workspace`, warm (every query answered correctly first). Leaves
 * telemetry enabled (the default) and no SDK registered. Run it after everything else in a process: the API's
 * proxy tracer that codeseam took at load keeps the SDK's tracer once it has used it, even after `trace.disable()`.
 */
export async function runTelemetryOverhead(options: TelemetryOverheadOptions): Promise<TelemetryOverheadResult | { missing: string }> {
  const { workspace, queries, pairs, log } = options
  const warmupPairs = options.warmupPairs ?? Math.max(20, Math.round(pairs / 10))
  const probe = trace.getTracerProvider().getTracer('codeseam.bench').startSpan('probe')
  probe.end()
  if (probe.isRecording())
    return { missing: 'an OpenTelemetry SDK was already registered in this process, so "API, no SDK" cannot be measured' }
  let hosted: HostedLsp | undefined
  try {
    hosted = await startHostedLsp(workspace.root, { otherPids: () => [] })
    const tools = await toolsLayer(hosted)
    if ('missing' in tools) return { missing: tools.missing }
    const layer = tools.layer
    for (const query of queries) await untilCorrect(layer, query)

    log(`telemetry: API, no SDK — ${pairs} pairs (instrumented vs plain, order random per pair) after ${warmupPairs} untimed`)
    const apiOnly = await runSeries('API, no SDK', layer, queries, pairs, warmupPairs, undefined, undefined)

    log(`telemetry: with exporter (OTLP/HTTP to an in-process sink) — ${pairs} pairs after ${warmupPairs} untimed`)
    const counter = new CountingSpanProcessor()
    const sdk = await registerSdk(counter)
    let withExporter: TelemetrySeriesResult
    try {
      const start = { ...sdk.sink.counts }
      withExporter = await runSeries('with exporter', layer, queries, pairs, warmupPairs, counter, () => ({
        traceRequests: sdk.sink.counts.traces - start.traces,
        metricRequests: sdk.sink.counts.metrics - start.metrics,
        bytes: sdk.sink.counts.bytes - start.bytes,
      }))
    } finally {
      await sdk.dispose()
      setTelemetry(true)
    }
    return {
      workspace: workspace.name,
      calls: '@codeseam/tool-lsp `callTool` in process (the tools layer), on a warm @codeseam/lsp-local host of its own',
      operations: queries.map((query) => query.operation),
      series: [apiOnly, withExporter],
      setup: [
        `plain: \`configureTelemetry({ enabled: false })\`; instrumented: \`enabled: true\`; switched before each call, the instruments rebuilt untimed`,
        `with exporter: BasicTracerProvider (a counting span processor + BatchSpanProcessor, export every ${spanExportDelayMs} ms) → OTLPTraceExporter (OTLP/HTTP JSON); MeterProvider + PeriodicExportingMetricReader (every ${metricExportIntervalMs} ms) → OTLPMetricExporter; both to a sink on 127.0.0.1 that discards the POSTs`,
        'with exporter: the AsyncLocalStorage context manager is registered for the whole series, so the plain arm runs with it too (it is part of the SDK set-up; its own cost is in neither difference)',
      ],
    }
  } finally {
    setTelemetry(true)
    await hosted?.dispose()
  }
}
