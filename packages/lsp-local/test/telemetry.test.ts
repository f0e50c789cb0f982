/**
 * OpenTelemetry spans and metrics of the local host, through the seam, with the native TypeScript server:
 * the span tree of a cold and a warm query, a crash and its restart, the counters and gauges, and the
 * privacy rule (no path, folder, file or symbol name in any exported byte).
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { configureTelemetry, createLsp, TelemetrySpan, telemetryId, type LspProviderStatus, type LspService } from '@codeseam/lsp'
import { context, metrics, SpanStatusCode, trace, type HrTime } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { expectGreetDefinition, useFaultSuite } from './fault-server/host-fixture.js'
import { LeakCheck, descendantPids, positionOf } from './helpers.js'

/** A reader the test collects from when it wants the metrics (no export timer). */
class CollectingReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve()
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve()
  }
}

// Planted in the folder name, a file name, a symbol name and the source text: it must never be exported.
const secret = `zq${randomBytes(6).toString('hex')}`
const exporter = new InMemorySpanExporter()
const reader = new CollectingReader()
const contextManager = new AsyncLocalStorageContextManager()
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const meterProvider = new MeterProvider({ readers: [reader] })
const leaks = new LeakCheck()

let root: string
let host: LocalHost
let lsp: LspService
/** Every span and metric export of the suite, for the privacy check. */
const exported: string[] = []

beforeAll(async () => {
  contextManager.enable()
  context.setGlobalContextManager(contextManager)
  trace.setGlobalTracerProvider(tracerProvider)
  metrics.setGlobalMeterProvider(meterProvider)
  root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), `codeseam-otel-${secret}-`)))
  mkdirSync(nodePath.join(root, 'src'))
  writeFileSync(
    nodePath.join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true },
      include: ['src'],
    }),
  )
  writeFileSync(
    nodePath.join(root, 'src', `${secret}_lib.ts`),
    `/** ${secret} in a comment. */\nexport function ${secret}Fn(value: number): number {\n  return value * 2\n}\n`,
  )
  writeFileSync(
    nodePath.join(root, 'src', 'main.ts'),
    `import { ${secret}Fn } from './${secret}_lib'\n\nexport const ${secret}Value = ${secret}Fn(21) + ${secret}Fn(1)\n`,
  )
  // Memory is sampled only under a ceiling: a generous one, sampled often.
  host = await createLocalHost({ requestTimeoutMs: 90_000, limits: { maxServerMemoryBytes: 8 * 1024 ** 3, memoryCheckIntervalMs: 100 } })
  lsp = createLsp()
  await host.attach(lsp, [{ root, trust: 'trusted' }])
})

afterAll(async () => {
  await leaks.record()
  await host?.dispose()
  await lsp?.dispose()
  trace.disable()
  metrics.disable()
  context.disable()
  await tracerProvider.shutdown()
  await meterProvider.shutdown()
  rmSync(root, { recursive: true, force: true })
  expect(await leaks.survivors()).toEqual([])
})

const references = () =>
  lsp.query({
    operation: 'references',
    root,
    path: nodePath.join(root, 'src', 'main.ts'),
    position: positionOf(root, 'src/main.ts', `${secret}Fn(21)`),
  })

/** The spans finished since the last take, recorded for the privacy check. */
function takeSpans(): ReadableSpan[] {
  const spans = exporter.getFinishedSpans()
  exporter.reset()
  for (const span of spans)
    exported.push(JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status }))
  return spans
}

async function collectMetrics(): Promise<ResourceMetrics> {
  const { resourceMetrics, errors } = await reader.collect()
  expect(errors).toEqual([])
  exported.push(JSON.stringify(resourceMetrics.scopeMetrics))
  return resourceMetrics
}

/** The data points of one metric: attributes and value. */
function points(resourceMetrics: ResourceMetrics, name: string): Array<{ attributes: Record<string, unknown>; value: unknown }> {
  return resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) => metric.dataPoints.map((point) => ({ attributes: { ...point.attributes }, value: point.value })))
}

const idOf = (span: ReadableSpan) => span.spanContext().spanId
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId
const ns = (time: HrTime) => BigInt(time[0]) * 1_000_000_000n + BigInt(time[1])

/** A span's ancestors, nearest first (within the given spans). */
function ancestors(span: ReadableSpan, spans: ReadonlyArray<ReadableSpan>): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [idOf(s), s]))
  const chain: ReadableSpan[] = []
  for (let parent = byId.get(parentOf(span) ?? ''); parent !== undefined; parent = byId.get(parentOf(parent) ?? '')) chain.push(parent)
  return chain
}

/** The spans as an indented tree under `top`, with their attributes and durations. */
function tree(top: ReadableSpan, spans: ReadonlyArray<ReadableSpan>, depth = 0): string {
  const ms = Number(ns(top.endTime) - ns(top.startTime)) / 1e6
  const children = spans.filter((s) => parentOf(s) === idOf(top)).sort((a, b) => Number(ns(a.startTime) - ns(b.startTime)))
  return [
    `${'  '.repeat(depth)}${top.name} ${ms.toFixed(1)} ms ${JSON.stringify(top.attributes)}`,
    ...children.map((child) => tree(child, spans, depth + 1)),
  ].join('\n')
}

/** One span named `name` (exactly one) among `spans`. */
function only(spans: ReadonlyArray<ReadableSpan>, name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name)
  expect(found.map((s) => s.name)).toEqual([name])
  return found[0] as ReadableSpan
}

/**
 * Every span nests in time within its parent and shares its trace; it also ended first (the simple processor
 * exports a span as it ends, so the finished list is in end order). The SDK stamps a span's start with
 * Date.now() (whole ms) and its end as that start plus a performance.now() duration, so two spans' clock
 * readings can be up to 1 ms out of their true order: the end-time comparison allows that much, the end
 * order does not need to.
 */
function expectNested(spans: ReadonlyArray<ReadableSpan>): void {
  const byId = new Map(spans.map((s) => [idOf(s), s]))
  const clockSkew = 1_000_000n
  for (const span of spans) {
    const parent = byId.get(parentOf(span) ?? '')
    if (parent === undefined) continue
    const at = `${span.name} in ${parent.name}: ${ns(span.startTime)}..${ns(span.endTime)} in ${ns(parent.startTime)}..${ns(parent.endTime)}`
    expect(span.spanContext().traceId, span.name).toBe(parent.spanContext().traceId)
    expect(ns(span.startTime) >= ns(parent.startTime), `starts within: ${at}`).toBe(true)
    expect(ns(span.endTime) <= ns(parent.endTime) + clockSkew, `ends within: ${at}`).toBe(true)
    expect(spans.indexOf(span), `ended first: ${at}`).toBeLessThan(spans.indexOf(parent))
  }
}

describe('telemetry of the local host (native TypeScript server)', () => {
  test('a cold references query: query → acquire (cold) → start, project load, and its LSP requests', { timeout: 180_000 }, async () => {
    const result = await references()
    expect(result.locations.length).toBeGreaterThanOrEqual(3)
    const spans = takeSpans()
    const query = only(spans, 'codeseam.query')
    console.log(`cold query:\n${tree(query, spans)}`)
    expect(parentOf(query)).toBeUndefined()
    const traceId = query.spanContext().traceId
    for (const span of spans) expect(span.spanContext().traceId, span.name).toBe(traceId)

    const acquire = only(spans, 'codeseam.server.acquire')
    expect(parentOf(acquire)).toBe(idOf(query))
    expect(acquire.attributes).toMatchObject({
      'codeseam.server.profile': 'typescript',
      'codeseam.server.cold_start': true,
      'codeseam.server.restart': false,
    })
    const start = only(spans, 'codeseam.server.start')
    expect(parentOf(start)).toBe(idOf(acquire))
    expect(start.attributes).toMatchObject({ 'codeseam.server.profile': 'typescript', 'codeseam.server.restart': false })

    const requests = spans.filter((s) => s.name === 'codeseam.lsp.request')
    const methods = requests.map((s) => s.attributes['lsp.method'])
    expect(methods).toContain('initialize')
    expect(methods).toContain('textDocument/references')
    for (const request of requests) {
      expect(ancestors(request, spans).map((s) => s.name)).toContain('codeseam.query')
      expect(request.attributes['codeseam.server.profile']).toBe('typescript')
      expect(request.attributes['codeseam.outcome']).toBe('ok')
    }
    const initialize = requests.find((s) => s.attributes['lsp.method'] === 'initialize')
    expect(initialize && parentOf(initialize)).toBe(idOf(start))

    // The native server searches only loaded projects: the query waited for its project to load.
    const load = only(spans, 'codeseam.project.load')
    expect(parentOf(load)).toBe(idOf(query))
    expect(load.attributes).toMatchObject({ 'codeseam.projects.found': 1, 'codeseam.projects.loaded': 1 })
    expect(load.attributes['codeseam.files']).toBeGreaterThanOrEqual(1)
    expectNested(spans)

    const metricsNow = await collectMetrics()
    expect(points(metricsNow, 'codeseam.server.starts')).toEqual([
      { attributes: { 'codeseam.server.profile': 'typescript', 'codeseam.server.restart': false }, value: 1 },
    ])
    expect(points(metricsNow, 'codeseam.server.crashes')).toEqual([])
    const open = points(metricsNow, 'codeseam.documents.open')
    expect(open).toHaveLength(1)
    expect(open[0]?.attributes).toEqual({ 'codeseam.server.profile': 'typescript' })
    expect(open[0]?.value).toBeGreaterThanOrEqual(1)
  })

  test('a warm query acquires without a start and loads no project', async () => {
    await references()
    const spans = takeSpans()
    const query = only(spans, 'codeseam.query')
    console.log(`warm query:\n${tree(query, spans)}`)
    const acquire = only(spans, 'codeseam.server.acquire')
    expect(parentOf(acquire)).toBe(idOf(query))
    expect(acquire.attributes['codeseam.server.cold_start']).toBe(false)
    expect(acquire.attributes['codeseam.server.restart']).toBeUndefined()
    expect(spans.map((s) => s.name)).not.toContain('codeseam.server.start')
    expect(spans.map((s) => s.name)).not.toContain('codeseam.project.load')
    const request = spans.find((s) => s.name === 'codeseam.lsp.request' && s.attributes['lsp.method'] === 'textDocument/references')
    expect(request && ancestors(request, spans).map((s) => s.name)).toContain('codeseam.query')
    expectNested(spans)
  })

  test('the memory gauge reports the sampled RSS of the live server', async () => {
    // The host samples every 100 ms; the gauge reports the last sample once there is one.
    const memory = await vi.waitFor(
      async () => {
        const found = points(await collectMetrics(), 'codeseam.server.memory')
        if (found.length === 0) throw new Error('no memory sample yet')
        return found
      },
      { timeout: 30_000, interval: 50 },
    )
    expect(memory).toHaveLength(1)
    expect(Object.keys(memory[0]?.attributes ?? {}).sort()).toEqual(['codeseam.root.hash', 'codeseam.server.profile'])
    expect(memory[0]?.value).toBeGreaterThan(1024 * 1024)
  })

  test('a crash is counted, and the next query restarts the server in a start span with restart=true', { timeout: 180_000 }, async () => {
    const provider = host.providers.find((p) => p.id === 'local:typescript')
    if (provider?.onStatusChange === undefined) throw new Error('no typescript provider with status events')
    const servers: number[] = []
    for (const pid of await descendantPids()) {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
      if (cmdline.includes('--lsp')) servers.push(pid)
    }
    expect(servers).toHaveLength(1)
    await leaks.record()
    const crashed = new Promise<LspProviderStatus>((resolve) => {
      const off = provider.onStatusChange?.((status) => {
        if (status.state === 'crashed') {
          off?.()
          resolve(status)
        }
      })
    })
    process.kill(servers[0] as number, 'SIGKILL')
    await crashed
    takeSpans()

    const result = await references()
    expect(result.locations.length).toBeGreaterThanOrEqual(3)
    const spans = takeSpans()
    const query = only(spans, 'codeseam.query')
    console.log(`query after a crash:\n${tree(query, spans)}`)
    const acquire = only(spans, 'codeseam.server.acquire')
    expect(acquire.attributes).toMatchObject({ 'codeseam.server.cold_start': true, 'codeseam.server.restart': true })
    const start = only(spans, 'codeseam.server.start')
    expect(parentOf(start)).toBe(idOf(acquire))
    expect(start.attributes['codeseam.server.restart']).toBe(true)
    expectNested(spans)

    const metricsNow = await collectMetrics()
    expect(points(metricsNow, 'codeseam.server.crashes')).toEqual([{ attributes: { 'codeseam.server.profile': 'typescript' }, value: 1 }])
    expect(points(metricsNow, 'codeseam.server.starts')).toEqual(
      expect.arrayContaining([
        { attributes: { 'codeseam.server.profile': 'typescript', 'codeseam.server.restart': false }, value: 1 },
        { attributes: { 'codeseam.server.profile': 'typescript', 'codeseam.server.restart': true }, value: 1 },
      ]),
    )
    expect(points(metricsNow, 'codeseam.server.starts')).toHaveLength(2)
  })

  test('no exported span or metric names the workspace folder, a file or a symbol', async () => {
    await collectMetrics()
    takeSpans()
    expect(exported.length).toBeGreaterThan(10)
    const all = exported.join('\n')
    expect(all).toContain('codeseam.lsp.request')
    expect(all).not.toContain(secret)
    expect(all).not.toContain(root)
  })

  test('the privacy check can fail: with paths on, the file path (and so the planted string) is exported', async () => {
    configureTelemetry({ includePaths: true })
    try {
      await references()
    } finally {
      configureTelemetry({ includePaths: false })
    }
    const before = exported.length
    takeSpans()
    expect(exported.slice(before).join('\n')).toContain(secret)
  })
})

// The fault server's profile is no built-in one: spans carry its id as `custom-<hash>` (telemetryId).
describe('request outcomes and the readiness wait (fault server)', () => {
  const { start } = useFaultSuite('codeseam-otel-faults-')

  /** The one definition request span among the spans finished since the last take. */
  const definitionSpan = (): ReadableSpan => {
    const found = takeSpans().filter((s) => s.name === 'codeseam.lsp.request' && s.attributes['lsp.method'] === 'textDocument/definition')
    expect(found).toHaveLength(1)
    return found[0] as ReadableSpan
  }

  test('a cancelled and a timed-out request: outcome, error code and failed status', async () => {
    const run = await start({ server: ['--scenario', 'hang', '--method', 'textDocument/definition'], config: { requestTimeoutMs: 2_000 } })
    expect((await run.query({ operation: 'hover', ...run.greetCall() })).hover?.contents).toContain('greet')
    takeSpans()
    const controller = new AbortController()
    const pending = run.failure({ operation: 'definition', ...run.greetCall() }, controller.signal)
    await run.log.waitFor((entries) => entries.find((e) => e.event === 'fault' && e['action'] === 'hang'), 'the definition to hang')
    controller.abort()
    expect((await pending).code).toBe('CANCELLED')
    const cancelled = definitionSpan()
    expect(cancelled.attributes).toMatchObject({ 'codeseam.outcome': 'cancelled', 'codeseam.error.code': 'CANCELLED' })
    expect(cancelled.status.code).toBe(SpanStatusCode.ERROR)

    expect((await run.failure({ operation: 'definition', ...run.greetCall() })).code).toBe('TIMEOUT')
    const timedOut = definitionSpan()
    expect(timedOut.attributes).toMatchObject({ 'codeseam.outcome': 'timeout', 'codeseam.error.code': 'TIMEOUT' })
    expect(timedOut.status.code).toBe(SpanStatusCode.ERROR)
  })

  test('a server error and a crash mid-request', async () => {
    const failing = await start({ server: ['--scenario', 'error', '--method', 'textDocument/definition'] })
    takeSpans()
    expect((await failing.failure({ operation: 'definition', ...failing.greetCall() })).code).toBe('SERVER_ERROR')
    expect(definitionSpan().attributes).toMatchObject({ 'codeseam.outcome': 'error', 'codeseam.error.code': 'SERVER_ERROR' })
    await failing.dispose()

    const crashing = await start({ server: ['--scenario', 'crash', '--method', 'textDocument/definition', '--after', '1'] })
    takeSpans()
    expect((await crashing.failure({ operation: 'definition', ...crashing.greetCall() })).code).toBe('SERVER_CRASHED')
    expect(definitionSpan().attributes).toMatchObject({ 'codeseam.outcome': 'crashed', 'codeseam.error.code': 'SERVER_CRASHED' })
    expect(points(await collectMetrics(), 'codeseam.server.crashes')).toContainEqual({
      attributes: { 'codeseam.server.profile': telemetryId('fault') },
      value: 1,
    })
  })

  test('the wait for a busy server to finish its progress is a codeseam.server.ready span in the query', async () => {
    const run = await start({
      server: ['--scenario', 'empty-while-indexing', '--index-ms', '300'],
      profile: { readiness: 'progressQuiet', readinessTimeoutMs: 30_000 },
    })
    takeSpans()
    // The provider is asked directly (no seam query span): a test span stands for the query.
    const tracer = trace.getTracer('codeseam-test')
    const result = await tracer.startActiveSpan('test.query', async (span) => {
      try {
        return await run.query({ operation: 'definition', ...run.greetCall() })
      } finally {
        span.end()
      }
    })
    expectGreetDefinition(run, result.locations)
    const spans = takeSpans()
    const query = only(spans, 'test.query')
    console.log(`a query to a server that indexes after start:\n${tree(query, spans)}`)
    const ready = only(spans, TelemetrySpan.ready)
    expect(ancestors(ready, spans).map((s) => s.name)).toContain('test.query')
    expect(ready.attributes).toMatchObject({ 'codeseam.server.profile': telemetryId('fault'), 'codeseam.outcome': 'ready' })
    // The server began its progress only after the handshake: the readiness rule found it quiet, the query's
    // first answer came back empty, and the query waited in this span before asking again.
    const definitions = spans.filter((s) => s.attributes['lsp.method'] === 'textDocument/definition')
    expect(definitions.length).toBeGreaterThanOrEqual(2)
    expect(definitions.some((s) => ns(s.startTime) + 1_000_000n >= ns(ready.endTime))).toBe(true)
    expectNested(spans)
  })
})
