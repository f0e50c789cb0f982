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

/** Depth-first rows: each span after its parent, siblings by start time. */
const rows = []
const walk = (parent, depth) => {
  for (const span of children.get(parent) ?? []) {
    rows.push({ span, depth })
    walk(span.id, depth + 1)
  }
}
walk(undefined, 0)

const t0 = rows.reduce((min, r) => (r.span.start < min ? r.span.start : min), rows[0].span.start)
const t1 = rows.reduce((max, r) => (r.span.end > max ? r.span.end : max), rows[0].span.end)
const totalMs = Number(t1 - t0) / 1e6
const ms = (ns) => Number(ns - t0) / 1e6

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

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const labelWidth = 520
const barWidth = 560
const rowHeight = 22
const top = 56
const width = labelWidth + barWidth + 90
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
  `<text x="12" y="40" fill="#555">${rows.length} spans, ${totalMs.toFixed(1)} ms; green: tool and seam, amber: server start and project loading, blue: LSP requests, red: failed</text>`,
  ...ticks.map(
    (t) =>
      `<line x1="${x(t).toFixed(1)}" y1="${top - 6}" x2="${x(t).toFixed(1)}" y2="${height - 30}" stroke="#eee"/><text x="${x(t).toFixed(1)}" y="${height - 16}" text-anchor="middle" fill="#777">${t.toFixed(t < 10 && step < 1 ? 1 : 0)} ms</text>`,
  ),
  ...rows.map(({ span, depth }, i) => {
    const y = top + i * rowHeight
    const start = x(ms(span.start))
    const end = Math.max(x(ms(span.end)), start + 1.5)
    const duration = Number(span.end - span.start) / 1e6
    return [
      `<text x="${12 + depth * 14}" y="${y + 15}">${escape(label(span))}</text>`,
      `<rect x="${start.toFixed(1)}" y="${y + 4}" width="${(end - start).toFixed(1)}" height="${rowHeight - 8}" rx="2" fill="${colour(span)}"/>`,
      `<text x="${(end + 4).toFixed(1)}" y="${y + 15}" fill="#555">${duration.toFixed(duration < 10 ? 2 : 1)} ms</text>`,
    ].join('')
  }),
  '</svg>',
]
writeFileSync(output, `${parts.join('\n')}\n`)
console.log(`${output}: ${rows.length} spans over ${totalMs.toFixed(1)} ms`)
