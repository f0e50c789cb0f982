import { createHash, randomBytes } from 'node:crypto'
import { isAbsolute, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

import {
  context,
  createContextKey,
  createNoopMeter,
  INVALID_SPAN_CONTEXT,
  metrics,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type MeterProvider,
  type ObservableGauge,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api'

import { LspError } from './errors.js'

/**
 * codeseam's traces and metrics, through the OpenTelemetry API: a no-op until an SDK is registered (by the
 * harness, or by `codeseam --otel-endpoint`), so a library user pays nothing unless they opt in.
 *
 * Privacy rule (docs/observability.md): no source text, no symbol names and no file paths in attributes or
 * events, root ids included; errors are recorded by their code, never their message. A path is recorded as a
 * hash salted per host process, so one file's spans group without naming it. `configureTelemetry({
 * includePaths: true })` (`--otel-include-paths`) adds workspace-relative paths, root ids and symbol names.
 */

/** Span names. A span's own kind of work is its name; what it worked on is in its attributes. */
export const TelemetrySpan = {
  tool: 'codeseam.tool',
  render: 'codeseam.render',
  target: 'codeseam.target',
  query: 'codeseam.query',
  acquire: 'codeseam.server.acquire',
  start: 'codeseam.server.start',
  projectLoad: 'codeseam.project.load',
  request: 'codeseam.lsp.request',
  ready: 'codeseam.server.ready',
  preview: 'codeseam.edit.preview',
  approval: 'codeseam.edit.approval',
  apply: 'codeseam.edit.apply',
  postDiagnostics: 'codeseam.edit.diagnostics',
} as const

/** Attribute keys; the values they carry never include source text, names or paths unless paths are on. */
export const TelemetryAttr = {
  tool: 'codeseam.tool.name',
  operation: 'codeseam.operation',
  provider: 'codeseam.provider',
  profile: 'codeseam.server.profile',
  rootHash: 'codeseam.root.hash',
  rootId: 'codeseam.root.id',
  fileHash: 'codeseam.file.hash',
  filePath: 'codeseam.file.path',
  symbolName: 'codeseam.symbol.name',
  errorCode: 'codeseam.error.code',
  method: 'lsp.method',
  outcome: 'codeseam.outcome',
  resultCount: 'codeseam.result.count',
  incomplete: 'codeseam.result.incomplete',
  derived: 'codeseam.result.derived',
  truncated: 'codeseam.result.truncated',
  cold: 'codeseam.server.cold_start',
  restart: 'codeseam.server.restart',
  targetKind: 'codeseam.target.kind',
  candidates: 'codeseam.target.candidates',
  projectsFound: 'codeseam.projects.found',
  projectsLoaded: 'codeseam.projects.loaded',
  filesNotSearched: 'codeseam.files.not_searched',
  files: 'codeseam.files',
  edits: 'codeseam.edits',
  decision: 'codeseam.approval.decision',
  chars: 'codeseam.text.chars',
  mark: 'codeseam.mark',
  resultStatus: 'codeseam.result.status',
  warm: 'codeseam.server.warm',
  resolvedBy: 'codeseam.target.resolved_by',
  diagnosticsPhase: 'codeseam.diagnostics.phase',
} as const

export interface TelemetryOptions {
  /** Adds workspace-relative paths, root ids and symbol names to spans (never file contents). Default false. */
  readonly includePaths?: boolean
  /** false: codeseam emits no spans and records no metrics even when an SDK is registered. Default true. */
  readonly enabled?: boolean
}

const settings = { includePaths: false, enabled: true }
// One salt per host process: a file's hash groups its spans within one run and means nothing outside it.
const salt = randomBytes(16)

/** Sets the privacy switch for this process's spans. */
export function configureTelemetry(options: TelemetryOptions): void {
  if (options.includePaths !== undefined) settings.includePaths = options.includePaths
  if (options.enabled !== undefined) settings.enabled = options.enabled
}

/** Whether codeseam emits spans and metrics at all (`configureTelemetry({ enabled })`, default true). */
export function telemetryEnabled(): boolean {
  return settings.enabled
}

/** Whether spans carry workspace-relative paths and names (`--otel-include-paths`). */
export function telemetryIncludesPaths(): boolean {
  return settings.includePaths
}

/** A salted hash of a path or id: groups one file's (or root's) spans without naming it (16 hex digits). */
export function telemetryHash(value: string): string {
  return createHash('sha256').update(salt).update(value, 'utf8').digest('hex').slice(0, 16)
}

const asPath = (pathOrUri: string): string => (pathOrUri.startsWith('file:') ? fileURLToPath(pathOrUri) : pathOrUri)

/**
 * A file's attributes: its salted hash, and with paths on its path relative to `root` (a path outside the
 * root, or with no root given, is never named).
 */
export function fileAttributes(pathOrUri: string, root?: string): Attributes {
  let path: string
  try {
    path = asPath(pathOrUri)
  } catch {
    return {}
  }
  const attributes: Attributes = { [TelemetryAttr.fileHash]: telemetryHash(path) }
  if (settings.includePaths && root !== undefined) {
    const rel = relative(asPath(root), path)
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) attributes[TelemetryAttr.filePath] = rel.split(sep).join('/')
  }
  return attributes
}

/**
 * A root's attributes: the salted hash of its path (the same hash the host's server spans carry, so a query and
 * its servers group), and with paths on its id (a root id is the root folder's name, so never by default).
 */
export function rootAttributes(rootPath: string, rootId?: string): Attributes {
  const hash = { [TelemetryAttr.rootHash]: telemetryHash(rootPath) }
  return settings.includePaths && rootId !== undefined ? { ...hash, [TelemetryAttr.rootId]: rootId } : hash
}

const publicIds = new Set<string>()

/**
 * Declares ids that name no one's code (built-in profiles such as `typescript`, their providers `local:typescript`):
 * {@link telemetryId} passes them as they are.
 */
export function declareTelemetryIds(ids: Iterable<string>): void {
  for (const id of ids) publicIds.add(id)
}

/**
 * A profile or provider id as spans and metrics carry it: a declared (built-in) id as it is; any other — a
 * profile from a user's config, a harness's provider, which may name a product or team — as `custom-<hash>`
 * unless paths are on. A fan-out's comma-joined ids are mapped one by one.
 */
export function telemetryId(id: string): string {
  if (settings.includePaths || publicIds.has(id)) return id
  if (id.includes(',')) return id.split(',').map(telemetryId).join(',')
  return `custom-${telemetryHash(id).slice(0, 8)}`
}

/** A symbol name, only with paths on. */
export function nameAttributes(name: string | undefined): Attributes {
  return settings.includePaths && name !== undefined ? { [TelemetryAttr.symbolName]: name } : {}
}

// The API's proxy tracer keeps the first real tracer it finds, even after that provider is disabled; a tracer
// per global provider follows a harness that registers a new one.
let tracerOf: { readonly provider: TracerProvider; readonly tracer: Tracer } | undefined
const currentTracer = (): Tracer => {
  const provider = trace.getTracerProvider()
  if (tracerOf?.provider !== provider) tracerOf = { provider, tracer: provider.getTracer('codeseam') }
  return tracerOf.tracer
}
const disabledSpan = trace.wrapSpanContext(INVALID_SPAN_CONTEXT)

/** The stable code of a failure: an LspError's code, else INTERNAL. Never the message (it quotes paths and names). */
export function errorCodeOf(error: unknown): string {
  if (error instanceof LspError) return error.code
  // A wrapper that carries its LspError (a mutation's stop, a fan-out's cause) reports that error's code.
  const inner =
    (error as { error?: unknown; cause?: unknown } | null | undefined)?.error ?? (error as { cause?: unknown } | null | undefined)?.cause
  return inner instanceof LspError ? inner.code : 'INTERNAL'
}

/** Marks a span failed with the error's code only. */
export function failSpan(span: Span, error: unknown): void {
  const code = errorCodeOf(error)
  span.setAttribute(TelemetryAttr.errorCode, code)
  span.setStatus({ code: SpanStatusCode.ERROR, message: code })
}

/**
 * Runs `run` in a new active span named `name`, ended when its promise settles; a rejection marks it failed
 * by code. `attributes` may be a function: it is called only when the span records (no SDK: no cost).
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes | (() => Attributes),
  run: (span: Span) => Promise<T>,
  parent?: Context,
): Promise<T> {
  const start = (span: Span): Promise<T> => {
    if (span.isRecording()) {
      try {
        span.setAttributes(typeof attributes === 'function' ? attributes() : attributes)
      } catch {
        // An attribute that cannot be computed (a malformed request) is left out; the call goes on and says why.
      }
    }
    let running: Promise<T>
    try {
      running = run(span)
    } catch (error) {
      failSpan(span, error)
      span.end()
      return Promise.reject(error)
    }
    return running.then(
      (value) => {
        span.end()
        return value
      },
      (error: unknown) => {
        failSpan(span, error)
        span.end()
        throw error
      },
    )
  }
  if (!settings.enabled) {
    // Off: the body runs as if there were no span at all.
    try {
      return run(disabledSpan)
    } catch (error) {
      return Promise.reject(error)
    }
  }
  const tracer = currentTracer()
  return parent === undefined ? tracer.startActiveSpan(name, start) : tracer.startActiveSpan(name, {}, parent, start)
}

/** Sets attributes on the active span when it records (`attributes` is called only then). */
export function annotateActiveSpan(attributes: () => Attributes): void {
  const span = trace.getActiveSpan()
  if (span?.isRecording() === true) span.setAttributes(attributes())
}

/**
 * A seam query run inside someone else's span (the Effect API's `query` runs inside an Effect span): the seam
 * copies its attributes to that span, and when that span is itself an OpenTelemetry span it opens no second
 * one, so a query nests once.
 */
export interface QuerySpanOwner {
  /** The owner's span is an OpenTelemetry span (an Effect tracer backed by OpenTelemetry): the seam opens none. */
  readonly ownsSpan: boolean
  setAttributes(attributes: Attributes): void
}
const querySpanOwnerKey = createContextKey('codeseam.query-span-owner')

/** `ctx` with the query span owned by `owner`. */
export function withQuerySpanOwner(ctx: Context, owner: QuerySpanOwner): Context {
  return ctx.setValue(querySpanOwnerKey, owner)
}

/** The owner of the active query span, when it is not the seam's own. */
export function activeQuerySpanOwner(): QuerySpanOwner | undefined {
  return settings.enabled ? (context.active().getValue(querySpanOwnerKey) as QuerySpanOwner | undefined) : undefined
}

/** The metric instruments (docs/observability.md lists them). */
export interface TelemetryInstruments {
  /** ms per seam operation: `codeseam.operation`, `codeseam.provider`, `codeseam.error.code` on failure. */
  readonly operationDuration: Histogram
  /** ms per tool call: `codeseam.tool.name`, `codeseam.error.code` on failure. */
  readonly toolDuration: Histogram
  /** Failures by `codeseam.error.code` (and `codeseam.operation` or `codeseam.tool.name`). */
  readonly errors: Counter
  /** Server processes started: `codeseam.server.profile`, `codeseam.server.restart`. */
  readonly serverStarts: Counter
  /** Server crashes by profile. */
  readonly serverCrashes: Counter
  /** Answers marked incomplete, derived or truncated: `codeseam.operation`, `codeseam.mark`. */
  readonly answersMarked: Counter
  /** Resident memory per server (bytes), from the host's memory sampling. */
  readonly serverMemory: ObservableGauge
  /** Documents open in servers, per profile. */
  readonly documentsOpen: ObservableGauge
}

/** A source of observed values (memory per server, documents open), read at each metric export. */
export type Observation = () => ReadonlyArray<{ readonly value: number; readonly attributes: Attributes }>

const observers = { serverMemory: new Set<Observation>(), documentsOpen: new Set<Observation>() }

/** Registers an observation of `kind`; returns its removal. */
export function observe(kind: keyof typeof observers, observation: Observation): () => void {
  observers[kind].add(observation)
  return () => observers[kind].delete(observation)
}

const noopMeterProvider: MeterProvider = { getMeter: () => createNoopMeter() }

// One set per provider seen last, and one of no-ops: turning codeseam's telemetry off and on again does not
// add a second set of gauge callbacks to the SDK's meter.
let cached: { readonly provider: MeterProvider; readonly instruments: TelemetryInstruments } | undefined
let disabled: TelemetryInstruments | undefined

/**
 * The instruments of the global meter provider. The API's meter provider is not a proxy (instruments made
 * before an SDK registers stay no-ops), so they are made again whenever the global provider changes.
 */
export function telemetryInstruments(): TelemetryInstruments {
  if (!settings.enabled) return (disabled ??= makeInstruments(noopMeterProvider))
  const provider = metrics.getMeterProvider()
  if (cached?.provider === provider) return cached.instruments
  const instruments = makeInstruments(provider)
  cached = { provider, instruments }
  return instruments
}

/** A set of instruments on `provider`'s codeseam meter, the gauges reading every registered observation. */
function makeInstruments(provider: MeterProvider): TelemetryInstruments {
  const meter = provider.getMeter('codeseam')
  const serverMemory = meter.createObservableGauge('codeseam.server.memory', {
    unit: 'By',
    description: 'Resident memory of each language server',
  })
  const documentsOpen = meter.createObservableGauge('codeseam.documents.open', { description: 'Documents open in language servers' })
  serverMemory.addCallback((result) => {
    for (const observation of observers.serverMemory) for (const { value, attributes } of observation()) result.observe(value, attributes)
  })
  documentsOpen.addCallback((result) => {
    for (const observation of observers.documentsOpen) for (const { value, attributes } of observation()) result.observe(value, attributes)
  })
  const instruments: TelemetryInstruments = {
    operationDuration: meter.createHistogram('codeseam.operation.duration', { unit: 'ms', description: 'Seam operation latency' }),
    toolDuration: meter.createHistogram('codeseam.tool.duration', { unit: 'ms', description: 'Tool call latency' }),
    errors: meter.createCounter('codeseam.errors', { description: 'Failures by LspError code' }),
    serverStarts: meter.createCounter('codeseam.server.starts', { description: 'Language server processes started' }),
    serverCrashes: meter.createCounter('codeseam.server.crashes', { description: 'Language server crashes' }),
    answersMarked: meter.createCounter('codeseam.answers.marked', { description: 'Answers marked incomplete, derived or truncated' }),
    serverMemory,
    documentsOpen,
  }
  return instruments
}
