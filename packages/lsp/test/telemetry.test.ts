import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { OtelTracer } from '@effect/opentelemetry'
import { context, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { Effect, Layer, Tracer } from 'effect'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import {
  configureTelemetry,
  createLsp,
  declareTelemetryIds,
  telemetryId,
  fileAttributes,
  inSpan,
  Lsp,
  LspError,
  OperationRollup,
  queryEffect,
  registerProviderScoped,
  resultMeta,
  rootAttributes,
  TelemetryAttr,
  TelemetrySpan,
  type LspProvider,
} from '../src/index.js'
import { staticProvider } from './providers.js'

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const contextManager = new AsyncLocalStorageContextManager()

beforeAll(() => {
  // The test providers' id, as a built-in provider's would be: spans carry it as it is.
  declareTelemetryIds(['ts'])
  context.setGlobalContextManager(contextManager.enable())
  trace.setGlobalTracerProvider(provider)
})
afterAll(async () => {
  trace.disable()
  context.disable()
  await provider.shutdown()
})
afterEach(() => {
  exporter.reset()
  configureTelemetry({ includePaths: false, enabled: true })
})

// A name that must never reach a span unless paths are on: in the root folder, the file and the symbol.
const planted = 'zq7plantedx'

/** Every span's name, attributes, events and status, as an exporter would see them. */
const exported = (spans: ReadonlyArray<ReadableSpan>) =>
  JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })))

describe('the OperationRollup behind code_status', () => {
  it('counts calls and failures by code, and takes p50/p95 by nearest rank', () => {
    const rollup = new OperationRollup()
    for (let ms = 1; ms <= 100; ms++) rollup.record('hover', ms)
    rollup.record('references', 5, new LspError('TIMEOUT', `the server did not answer in /home/${planted}`))
    rollup.record('references', 7, new Error('not an LspError'))
    const [hover, references] = rollup.snapshot()
    expect(hover).toEqual({ operation: 'hover', count: 100, errors: {}, p50Ms: 50, p95Ms: 95 })
    expect(references).toEqual({ operation: 'references', count: 2, errors: { TIMEOUT: 1, INTERNAL: 1 }, p50Ms: 5, p95Ms: 7 })
  })

  it('keeps the most recent durations only, but counts every call', () => {
    const rollup = new OperationRollup()
    for (let i = 0; i < 2000; i++) rollup.record('hover', i < 1000 ? 1000 : 1)
    const [hover] = rollup.snapshot()
    expect(hover?.count).toBe(2000)
    // The last 1024 calls hold 24 slow ones and 1000 fast ones.
    expect(hover?.p50Ms).toBe(1)
    expect(hover?.p95Ms).toBe(1)
  })

  it('is what the service reports per operation', async () => {
    const lsp = createLsp()
    lsp.registerProvider(staticProvider('ts', { '.ts': 'typescript' }))
    await lsp.query({ operation: 'hover', root: '/w', path: 'a.ts', position: { line: 0, character: 0 } })
    await expect(lsp.query({ operation: 'hover', root: '/w', path: 'a.py', position: { line: 0, character: 0 } })).rejects.toThrow()
    expect(lsp.rollup()).toEqual([expect.objectContaining({ operation: 'hover', count: 2, errors: { UNAVAILABLE: 1 } })])
    await lsp.dispose()
  })
})

describe('privacy of attributes', () => {
  it('hashes paths and root ids, salted; names them only with includePaths', () => {
    const root = join(tmpdir(), planted)
    const file = join(root, 'src', `${planted}.ts`)
    const hashed = { ...fileAttributes(file, root), ...rootAttributes(root, planted) }
    expect(JSON.stringify(hashed)).not.toContain(planted)
    expect(hashed[TelemetryAttr.fileHash]).toMatch(/^[0-9a-f]{16}$/)
    // Same file, same hash (a URI and a path group together); another file, another hash.
    expect(fileAttributes(`file://${file}`, root)[TelemetryAttr.fileHash]).toBe(hashed[TelemetryAttr.fileHash])
    expect(fileAttributes(join(root, 'other.ts'), root)[TelemetryAttr.fileHash]).not.toBe(hashed[TelemetryAttr.fileHash])
    configureTelemetry({ includePaths: true })
    expect(fileAttributes(file, root)[TelemetryAttr.filePath]).toBe(`src/${planted}.ts`)
    // A path outside the root is never named, even with paths on.
    expect(fileAttributes('/etc/passwd', root)[TelemetryAttr.filePath]).toBeUndefined()
    expect(rootAttributes(root, planted)[TelemetryAttr.rootId]).toBe(planted)
  })

  it('a failed span carries the error code, never the message', async () => {
    await expect(
      inSpan('test.fail', {}, async () => {
        throw new LspError('NOT_FOUND', `no symbol "${planted}" in ${planted}.ts`)
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const [span] = exporter.getFinishedSpans()
    expect(span?.attributes[TelemetryAttr.errorCode]).toBe('NOT_FOUND')
    expect(exported(exporter.getFinishedSpans())).not.toContain(planted)
  })

  it("the seam's query span names neither root nor file by default, and both with includePaths", async () => {
    const dir = mkdtempSync(join(tmpdir(), `${planted}-`))
    try {
      const lsp = createLsp()
      lsp.registerProvider(staticProvider('ts', { '.ts': 'typescript' }))
      const request = { operation: 'hover', root: dir, path: `src/${planted}.ts`, position: { line: 0, character: 0 } } as const
      await lsp.query(request)
      const [quiet] = exporter.getFinishedSpans()
      expect(quiet?.name).toBe(TelemetrySpan.query)
      expect(quiet?.attributes).toMatchObject({ [TelemetryAttr.operation]: 'hover', [TelemetryAttr.provider]: 'ts' })
      expect(exported(exporter.getFinishedSpans())).not.toContain(planted)
      exporter.reset()
      configureTelemetry({ includePaths: true })
      await lsp.query(request)
      expect(exporter.getFinishedSpans()[0]?.attributes[TelemetryAttr.filePath]).toBe(`src/${planted}.ts`)
      await lsp.dispose()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a profile or provider id is passed as it is only when declared (built in) or with paths on', () => {
    declareTelemetryIds(['typescript', 'local:typescript'])
    expect(telemetryId('typescript')).toBe('typescript')
    expect(telemetryId(`${planted}-profile`)).toMatch(/^custom-[0-9a-f]{8}$/)
    expect(telemetryId(`local:typescript,local:${planted}`)).toMatch(/^local:typescript,custom-[0-9a-f]{8}$/)
    configureTelemetry({ includePaths: true })
    expect(telemetryId(`${planted}-profile`)).toBe(`${planted}-profile`)
  })

  it('enabled: false emits nothing under a registered SDK', async () => {
    configureTelemetry({ enabled: false })
    const lsp = createLsp()
    lsp.registerProvider(staticProvider('ts', { '.ts': 'typescript' }))
    await lsp.query({ operation: 'hover', root: '/w', path: 'a.ts', position: { line: 0, character: 0 } })
    expect(exporter.getFinishedSpans()).toEqual([])
    await lsp.dispose()
  })
})

describe('the Effect API', () => {
  /** A provider whose query opens a span of its own, as a local host's server request does. */
  const nested = (): LspProvider => ({
    ...staticProvider('ts', { '.ts': 'typescript' }),
    query: (request) =>
      inSpan(TelemetrySpan.request, { [TelemetryAttr.method]: 'textDocument/hover' }, async () => ({
        kind: 'hover',
        hover: { contents: `hover for ${request.operation}`, format: 'plaintext' },
        meta: resultMeta('ts'),
      })) as never,
  })
  const program = Effect.scoped(
    Effect.gen(function* () {
      yield* registerProviderScoped(nested())
      return yield* queryEffect({ operation: 'hover', root: '/w', path: 'a.ts', position: { line: 0, character: 0 } })
    }),
  ).pipe(Effect.withSpan('harness.turn'))

  it('with an OpenTelemetry-backed Effect tracer, the query nests once: the Effect span is the query span', async () => {
    const result = await Effect.runPromise(program.pipe(Effect.provide(Layer.merge(Lsp.layer, OtelTracer.layerGlobal))))
    expect(result.hover?.contents).toBe('hover for hover')
    const spans = exporter.getFinishedSpans()
    const queries = spans.filter((s) => s.name === TelemetrySpan.query)
    expect(queries).toHaveLength(1)
    const [query] = queries
    const request = spans.find((s) => s.name === TelemetrySpan.request)
    const turn = spans.find((s) => s.name === 'harness.turn')
    // harness.turn → codeseam.query (the Effect span, with the seam's attributes) → codeseam.lsp.request
    expect(query?.parentSpanContext?.spanId).toBe(turn?.spanContext().spanId)
    expect(request?.parentSpanContext?.spanId).toBe(query?.spanContext().spanId)
    expect(request?.spanContext().traceId).toBe(turn?.spanContext().traceId)
    expect(query?.attributes).toMatchObject({ [TelemetryAttr.operation]: 'hover', [TelemetryAttr.provider]: 'ts' })
  })

  it('a failed query tells the OpenTelemetry-backed Effect span its code only; the caller gets the whole error', async () => {
    const failing = staticProvider(
      'ts',
      { '.ts': 'typescript' },
      {
        answer: () => {
          throw new LspError('NOT_FOUND', `no symbol "${planted}" in /home/${planted}/a.ts`)
        },
      },
    )
    const failed = Effect.scoped(
      Effect.gen(function* () {
        yield* registerProviderScoped(failing)
        return yield* queryEffect({ operation: 'hover', root: '/w', path: 'a.ts', position: { line: 0, character: 0 } })
      }),
    ).pipe(Effect.flip, Effect.provide(Layer.merge(Lsp.layer, OtelTracer.layerGlobal)))
    const error = await Effect.runPromise(failed)
    expect(error).toBeInstanceOf(LspError)
    expect(error.code).toBe('NOT_FOUND')
    expect(error.message).toContain(planted)
    const query = exporter.getFinishedSpans().find((s) => s.name === TelemetrySpan.query)
    expect(query?.attributes[TelemetryAttr.errorCode]).toBe('NOT_FOUND')
    expect(query?.status.code).toBe(2)
    expect(exported(exporter.getFinishedSpans())).not.toContain(planted)
  })

  it('with telemetry off, the Effect API opens no span either', async () => {
    configureTelemetry({ enabled: false })
    await Effect.runPromise(program.pipe(Effect.provide(Layer.merge(Lsp.layer, OtelTracer.layerGlobal))))
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['harness.turn'])
  })

  it("with Effect's own tracer, the Effect span carries the seam's attributes and OpenTelemetry gets its own query span", async () => {
    const effectSpans: Array<{ readonly name: string; readonly attributes: ReadonlyMap<string, unknown> }> = []
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const native = yield* Effect.tracer
        // Effect's own tracer, watched: every span it makes is kept for the assertions.
        const watching: Tracer.Tracer = {
          span(options) {
            const span = native.span(options)
            effectSpans.push(span)
            return span
          },
        }
        return yield* program.pipe(Effect.withTracer(watching))
      }).pipe(Effect.provide(Lsp.layer)),
    )
    expect(result.hover?.contents).toBe('hover for hover')
    const effectQuery = effectSpans.find((s) => s.name === TelemetrySpan.query)
    expect(effectQuery?.attributes.get(TelemetryAttr.operation)).toBe('hover')
    const otelQueries = exporter.getFinishedSpans().filter((s) => s.name === TelemetrySpan.query)
    expect(otelQueries).toHaveLength(1)
    const request = exporter.getFinishedSpans().find((s) => s.name === TelemetrySpan.request)
    expect(request?.parentSpanContext?.spanId).toBe(otelQueries[0]?.spanContext().spanId)
  })
})
