import { EventEmitter } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'

/**
 * An in-process OTLP/HTTP collector for tests: accepts what the `-http` (JSON) exporters POST to `/v1/traces`
 * and `/v1/metrics` (gzip too), keeps every raw payload (for privacy greps) and decodes spans and metric data
 * points. `waitForSpan` / `waitForSpans` / `waitForMetric` resolve when a matching payload arrives (events, no
 * polling) and fail at a deadline listing what did arrive.
 */

/** An attribute value as OTLP JSON carries it, made plain. */
export type AttributeValue = string | number | boolean | null | ReadonlyArray<AttributeValue>

/** One decoded span. */
export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  /** '' for a root span. */
  readonly parentSpanId: string
  readonly name: string
  readonly attributes: Readonly<Record<string, AttributeValue>>
  readonly startNs: bigint
  readonly endNs: bigint
  /** 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message?: string }
  readonly resource: Readonly<Record<string, AttributeValue>>
}

/** One decoded metric data point. */
export interface ReceivedPoint {
  readonly metric: string
  readonly unit?: string
  /** `sum`, `gauge`, `histogram`, … */
  readonly kind: string
  readonly attributes: Readonly<Record<string, AttributeValue>>
  /** The value of a sum or gauge; a histogram's count. */
  readonly value: number
  readonly resource: Readonly<Record<string, AttributeValue>>
}

/** A raw request as it arrived. */
export interface RawPayload {
  readonly path: string
  readonly contentType: string
  /** `content-encoding` (`gzip`), or '' when the body came as it is. */
  readonly encoding: string
  /** The body, decompressed, as text. */
  readonly body: string
}

type Json = Record<string, unknown>

function plainValue(value: Json | undefined): AttributeValue {
  if (value === undefined) return null
  if ('stringValue' in value) return value.stringValue as string
  if ('boolValue' in value) return value.boolValue as boolean
  if ('intValue' in value) return Number(value.intValue)
  if ('doubleValue' in value) return Number(value.doubleValue)
  if ('arrayValue' in value) return (((value.arrayValue as Json).values as Json[] | undefined) ?? []).map(plainValue)
  return JSON.stringify(value)
}

function plainAttributes(list: unknown): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {}
  for (const entry of (list as Array<{ key: string; value?: Json }> | undefined) ?? []) out[entry.key] = plainValue(entry.value)
  return out
}

/** OTLP JSON ids are hex; a protobuf-style base64 id is turned into hex so tests compare one form. */
function hexId(id: unknown): string {
  if (typeof id !== 'string' || id === '') return ''
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex')
}

const nanos = (value: unknown): bigint => BigInt(typeof value === 'number' ? Math.round(value) : String(value ?? '0'))

export interface OtlpReceiver {
  /** The base URL to give `--otel-endpoint` (`http://127.0.0.1:PORT`). */
  readonly url: string
  readonly payloads: ReadonlyArray<RawPayload>
  readonly spans: ReadonlyArray<ReceivedSpan>
  readonly points: ReadonlyArray<ReceivedPoint>
  /** Every raw body, joined: what a privacy check greps. */
  rawText(): string
  waitForSpan(predicate: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>
  /** Resolves with every span received so far once `n` have arrived, or once `predicate` holds of all received. */
  waitForSpans(
    condition: number | ((spans: ReadonlyArray<ReceivedSpan>) => boolean),
    timeoutMs?: number,
  ): Promise<ReadonlyArray<ReceivedSpan>>
  waitForMetric(predicate: (point: ReceivedPoint) => boolean, timeoutMs?: number): Promise<ReceivedPoint>
  /** The spans of one trace as an indented tree (for failure messages and logs). */
  tree(traceId?: string): string
  close(): Promise<void>
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function spanTree(spans: ReadonlyArray<ReceivedSpan>): string {
  const ids = new Set(spans.map((s) => s.spanId))
  const children = new Map<string, ReceivedSpan[]>()
  for (const span of spans) {
    const parent = ids.has(span.parentSpanId) ? span.parentSpanId : ''
    children.set(parent, [...(children.get(parent) ?? []), span])
  }
  const lines: string[] = []
  const walk = (parent: string, depth: number) => {
    for (const span of [...(children.get(parent) ?? [])].sort((a, b) => (a.startNs < b.startNs ? -1 : 1))) {
      const ms = Number(span.endNs - span.startNs) / 1e6
      const remote = depth === 0 && span.parentSpanId !== '' ? ` (parent ${span.parentSpanId})` : ''
      lines.push(`${'  '.repeat(depth)}${span.name} ${ms.toFixed(1)} ms [${span.traceId.slice(0, 8)}/${span.spanId}]${remote}`)
      walk(span.spanId, depth + 1)
    }
  }
  walk('', 0)
  return lines.join('\n')
}

/** Starts a receiver on 127.0.0.1 (a free port). */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const payloads: RawPayload[] = []
  const spans: ReceivedSpan[] = []
  const points: ReceivedPoint[] = []
  const events = new EventEmitter()
  events.setMaxListeners(0)

  const take = (path: string, body: Json) => {
    if (path === '/v1/traces') {
      for (const rs of (body.resourceSpans as Json[] | undefined) ?? []) {
        const resource = plainAttributes((rs.resource as Json | undefined)?.attributes)
        for (const ss of (rs.scopeSpans as Json[] | undefined) ?? []) {
          for (const s of (ss.spans as Json[] | undefined) ?? []) {
            const status = (s.status as Json | undefined) ?? {}
            spans.push({
              traceId: hexId(s.traceId),
              spanId: hexId(s.spanId),
              parentSpanId: hexId(s.parentSpanId),
              name: String(s.name),
              attributes: plainAttributes(s.attributes),
              startNs: nanos(s.startTimeUnixNano),
              endNs: nanos(s.endTimeUnixNano),
              status: {
                code: Number(status.code ?? 0),
                ...(typeof status.message === 'string' ? { message: status.message } : {}),
              },
              resource,
            })
          }
        }
      }
    } else {
      for (const rm of (body.resourceMetrics as Json[] | undefined) ?? []) {
        const resource = plainAttributes((rm.resource as Json | undefined)?.attributes)
        for (const sm of (rm.scopeMetrics as Json[] | undefined) ?? []) {
          for (const m of (sm.metrics as Json[] | undefined) ?? []) {
            for (const kind of ['sum', 'gauge', 'histogram', 'exponentialHistogram', 'summary']) {
              const data = m[kind] as Json | undefined
              if (data === undefined) continue
              for (const p of (data.dataPoints as Json[] | undefined) ?? []) {
                const value = p.asDouble ?? p.asInt ?? p.count ?? 0
                points.push({
                  metric: String(m.name),
                  ...(typeof m.unit === 'string' ? { unit: m.unit } : {}),
                  kind,
                  attributes: plainAttributes(p.attributes),
                  value: Number(value),
                  resource,
                })
              }
            }
          }
        }
      }
    }
  }

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? ''
    if (req.method !== 'POST' || (path !== '/v1/traces' && path !== '/v1/metrics')) {
      res.writeHead(404).end()
      return
    }
    readBody(req).then(
      (raw) => {
        const contentType = String(req.headers['content-type'] ?? '')
        let text: string
        try {
          text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')
        } catch {
          res.writeHead(400).end()
          return
        }
        payloads.push({ path, contentType, encoding: String(req.headers['content-encoding'] ?? ''), body: text })
        if (!contentType.includes('json')) {
          // Protobuf is not what codeseam sends: kept raw, answered 415 so a wrong exporter shows up.
          res.writeHead(415).end()
          events.emit('payload')
          return
        }
        try {
          take(path, JSON.parse(text) as Json)
        } catch {
          res.writeHead(400).end()
          events.emit('payload')
          return
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
        events.emit('payload')
      },
      () => res.writeHead(400).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  const arrived = () =>
    `${payloads.length} payloads; spans:\n${spanTree(spans) || '  (none)'}\nmetrics: ${[...new Set(points.map((p) => p.metric))].join(', ') || '(none)'}`

  /** Resolves with `check()`'s first defined answer, re-checked at each payload; rejects at the deadline. */
  const waitFor = <T>(check: () => T | undefined, what: string, timeoutMs: number): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const first = check()
      if (first !== undefined) return resolve(first)
      const onPayload = () => {
        const found = check()
        if (found === undefined) return
        clearTimeout(timer)
        events.off('payload', onPayload)
        resolve(found)
      }
      const timer = setTimeout(() => {
        events.off('payload', onPayload)
        reject(new Error(`no ${what} within ${timeoutMs} ms; arrived: ${arrived()}`))
      }, timeoutMs)
      events.on('payload', onPayload)
    })

  return {
    url: `http://127.0.0.1:${port}`,
    payloads,
    spans,
    points,
    rawText: () => payloads.map((p) => p.body).join('\n'),
    waitForSpan: (predicate, timeoutMs = 20_000) => waitFor(() => spans.find(predicate), 'matching span', timeoutMs),
    waitForSpans: (condition, timeoutMs = 20_000) =>
      waitFor(
        () => ((typeof condition === 'number' ? spans.length >= condition : condition(spans)) ? [...spans] : undefined),
        typeof condition === 'number' ? `${condition} spans` : 'matching spans',
        timeoutMs,
      ),
    waitForMetric: (predicate, timeoutMs = 20_000) => waitFor(() => points.find(predicate), 'matching metric point', timeoutMs),
    tree: (traceId) => spanTree(traceId === undefined ? spans : spans.filter((s) => s.traceId === traceId)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
