// `node scripts/trace-svg.mjs TRACE.json OUT.svg [--title TEXT]`: draws one exported trace as a waterfall.
//
// TRACE.json is what an OTLP/HTTP JSON exporter posts to `/v1/traces` — one payload
// (`{ resourceSpans: [...] }`) or an array of them, as `scripts/example-trace.mjs` saves. Each span is a row,
// indented under its parent, its bar placed on the trace's time axis; the label is the span's name and the
// attribute that says what it worked on (tool, operation, LSP method, profile), never a path.
import { readFileSync, writeFileSync } from 'node:fs'

const [input, output, ...rest] = process.argv.slice(2)
if (input === undefined || output === undefined) {
  console.error('usage: node scripts/trace-svg.mjs TRACE.json OUT.svg [--title TEXT]')
  process.exit(2)
}
const titleIndex = rest.indexOf('--title')
const title = titleIndex >= 0 ? rest[titleIndex + 1] : 'codeseam trace'

/** An OTLP JSON attribute value as a plain value. */
const valueOf = (v) =>
  v === undefined
    ? undefined
    : 'stringValue' in v
      ? v.stringValue
      : 'intValue' in v
        ? Number(v.intValue)
        : 'doubleValue' in v
          ? v.doubleValue
          : 'boolValue' in v
            ? v.boolValue
            : undefined

const payloads = [JSON.parse(readFileSync(input, 'utf8'))].flat()
const spans = payloads.flatMap((p) =>
  (p.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        id: s.spanId,
        parent: s.parentSpanId || undefined,
        name: s.name,
        start: BigInt(s.startTimeUnixNano),
        end: BigInt(s.endTimeUnixNano),
        failed: s.status?.code === 2,
        attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
      })),
    ),
  ),
)
if (spans.length === 0) {
  console.error(`${input} holds no spans`)
  process.exit(1)
}

const byId = new Map(spans.map((s) => [s.id, s]))
const children = new Map()
for (const span of spans) {
  const parent = span.parent !== undefined && byId.has(span.parent) ? span.parent : undefined
  const list = children.get(parent) ?? []
  list.push(span)
  children.set(parent, list)
}
for (const list of children.values()) list.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))

/**
 * Depth-first rows: each span after its parent, siblings by start time. A run of three or more siblings with
 * the same label (a tool asking the same operation for each file of a result) is one row: its bar spans the
 * run, its label says how many and their total time, and their children are not drawn.
 */
const rows = []
const walk = (parent, depth) => {
  const list = children.get(parent) ?? []
  for (let i = 0; i < list.length;) {
    let j = i + 1
    while (j < list.length && label(list[j]) === label(list[i])) j++
    if (j - i >= 3) {
      const run = list.slice(i, j)
      const hidden = run.reduce((n, s) => n + count(s.id), 0)
      rows.push({ span: list[i], depth, run, hidden })
    } else {
      for (const span of list.slice(i, j)) {
        rows.push({ span, depth })
        walk(span.id, depth + 1)
      }
    }
    i = j
  }
}
/** Spans below a span. */
const count = (id) => (children.get(id) ?? []).reduce((n, s) => n + 1 + count(s.id), 0)

const detailKeys = ['codeseam.tool.name', 'codeseam.operation', 'lsp.method', 'codeseam.server.profile', 'codeseam.target.kind']
const flags = {
  'codeseam.server.cold_start': 'cold',
  'codeseam.server.restart': 'restart',
  'codeseam.result.incomplete': 'incomplete',
  'codeseam.result.derived': 'derived',
}
const label = (span) => {
  const detail = detailKeys.map((k) => span.attributes[k]).filter((v) => v !== undefined && v !== '')
  const marks = Object.entries(flags)
    .filter(([k]) => span.attributes[k] === true)
    .map(([, name]) => name)
  const code = span.attributes['codeseam.error.code']
  return [span.name, ...new Set(detail)].join(' · ') + (marks.length ? ` [${marks.join(', ')}]` : '') + (code ? ` ✗ ${code}` : '')
}

walk(undefined, 0)

const t0 = spans.reduce((min, s) => (s.start < min ? s.start : min), spans[0].start)
const t1 = spans.reduce((max, s) => (s.end > max ? s.end : max), spans[0].end)
const totalMs = Number(t1 - t0) / 1e6
const ms = (ns) => Number(ns - t0) / 1e6

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const labelWidth = 520
const barWidth = 560
const rowHeight = 22
const top = 56
const width = labelWidth + barWidth + 280
const height = top + rows.length * rowHeight + 40
const x = (t) => labelWidth + (totalMs === 0 ? 0 : (t / totalMs) * barWidth)
const colour = (span) =>
  span.failed
    ? '#d9534f'
    : span.name.startsWith('codeseam.lsp')
      ? '#5b8def'
      : span.name.startsWith('codeseam.server') || span.name.startsWith('codeseam.project')
        ? '#e0a030'
        : '#4caf7a'

const ticks = []
const step = niceStep(totalMs / 6)
for (let t = 0; t <= totalMs + 1e-9; t += step) ticks.push(t)
function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-3)))
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? power * 10
}

const parts = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12">`,
  `<rect width="100%" height="100%" fill="#ffffff"/>`,
  `<text x="12" y="22" font-size="14" font-weight="bold">${escape(title)}</text>`,
  `<text x="12" y="40" fill="#555">${spans.length} spans, ${totalMs.toFixed(1)} ms; green: tool and seam, amber: server start and project loading, blue: LSP requests, red: failed</text>`,
  ...ticks.map(
    (t) =>
      `<line x1="${x(t).toFixed(1)}" y1="${top - 6}" x2="${x(t).toFixed(1)}" y2="${height - 30}" stroke="#eee"/><text x="${x(t).toFixed(1)}" y="${height - 16}" text-anchor="middle" fill="#777">${t.toFixed(t < 10 && step < 1 ? 1 : 0)} ms</text>`,
  ),
  ...rows.map(({ span, depth, run, hidden }, i) => {
    const y = top + i * rowHeight
    const last = run === undefined ? span : run[run.length - 1]
    const start = x(ms(span.start))
    const end = Math.max(x(ms(last.end)), start + 1.5)
    const durations = (run ?? [span]).map((s) => Number(s.end - s.start) / 1e6)
    const total = durations.reduce((a, b) => a + b, 0)
    const text = run === undefined ? label(span) : `${label(span)} ×${run.length} (+${hidden} spans below)`
    const figure =
      run === undefined
        ? `${total.toFixed(total < 10 ? 2 : 1)} ms`
        : `${total.toFixed(1)} ms in all, ${Math.min(...durations).toFixed(1)}–${Math.max(...durations).toFixed(1)} ms each`
    return [
      `<text x="${12 + depth * 14}" y="${y + 15}">${escape(text)}</text>`,
      `<rect x="${start.toFixed(1)}" y="${y + 4}" width="${(end - start).toFixed(1)}" height="${rowHeight - 8}" rx="2" fill="${colour(span)}"${run === undefined ? '' : ' fill-opacity="0.55"'}/>`,
      `<text x="${(end + 4).toFixed(1)}" y="${y + 15}" fill="#555">${figure}</text>`,
    ].join('')
  }),
  '</svg>',
]
writeFileSync(output, `${parts.join('\n')}\n`)
console.log(`${output}: ${spans.length} spans in ${rows.length} rows over ${totalMs.toFixed(1)} ms`)
