import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, beforeEach, describe, expect, it, onTestFailed } from 'vitest'

import { startMcp, type McpProcess } from './support/mcp-process.js'
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js'
import { copyFixture, lineOf, removeWorkspace } from './support/workspace.js'

// The span trees a real `codeseam mcp --otel-endpoint` exports, read back by an in-process OTLP/HTTP
// receiver: a references call (every link, attribute and duration), a cold start with project loading, a
// crash and restart of a (fault) server, and an applied rename. Each call carries its own traceparent, so its
// tree is found by trace id, never by timing.

type Json = any

/**
 * The SDK stamps a span's start from the wall clock in whole milliseconds and its end as start plus a
 * monotonic duration, so a child's end can sit up to 1 ms past its parent's; orderings are checked within it.
 */
const clockSlackNs = 1_000_000n

const exportEnv = { OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_METRIC_EXPORT_INTERVAL: '600000' }
const faultServer = fileURLToPath(new URL('../../lsp-local/test/fault-server/server.mjs', import.meta.url))

let root: string
let receiver: OtlpReceiver
let mcp: McpProcess | undefined

beforeEach(async () => {
  root = await copyFixture()
  receiver = await startOtlpReceiver()
})

afterEach(async () => {
  await mcp?.close()
  mcp = undefined
  await receiver.close()
  await removeWorkspace(root)
})

async function start(args: ReadonlyArray<string> = [], accept = false): Promise<McpProcess> {
  const started = await startMcp(['--root', root, '--otel-endpoint', receiver.url, ...args], {
    env: exportEnv,
    ...(accept ? { elicit: () => ({ action: 'accept', content: { approveAll: false } }) } : {}),
  })
  onTestFailed(() => console.error(`codeseam mcp stderr:\n${started.stderr()}\nspans:\n${receiver.tree()}`))
  mcp = started
  return started
}

/** Calls a tool as the child of a fresh client span; returns the result and the client's trace id and span id. */
async function traced(client: McpProcess['client'], name: string, args: Record<string, unknown>) {
  const traceId = randomBytes(16).toString('hex')
  const spanId = randomBytes(8).toString('hex')
  const result = (await client.callTool({ name, arguments: args, _meta: { traceparent: `00-${traceId}-${spanId}-01` } }, undefined, {
    timeout: 180_000,
  })) as CallToolResult
  return { result, traceId, spanId }
}

/**
 * The call's whole tree once its tool span (the last of the call to end) has arrived: every span of the
 * trace, checked for the invariants every tree holds — one tool span under the client's span, every other
 * span's parent inside the trace, each child inside its parent's interval.
 */
async function treeOf(call: { traceId: string; spanId: string }) {
  const tool = await receiver.waitForSpan((s) => s.traceId === call.traceId && s.name === 'codeseam.tool')
  const spans = receiver.spans.filter((s) => s.traceId === call.traceId)
  const text = receiver.tree(call.traceId)
  expect(tool.parentSpanId, text).toBe(call.spanId)
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  for (const span of spans) {
    if (span === tool) continue
    const parent = byId.get(span.parentSpanId)
    expect(parent, `${span.name} has no parent in the trace:\n${text}`).toBeDefined()
    expect(
      span.startNs + clockSlackNs >= parent!.startNs && span.endNs <= parent!.endNs + clockSlackNs,
      `${span.name} outside ${parent!.name}:\n${text}`,
    ).toBe(true)
  }
  const children = (parent: ReceivedSpan, name?: string) =>
    spans
      .filter((s) => s.parentSpanId === parent.spanId && (name === undefined || s.name === name))
      .sort((a, b) => (a.startNs < b.startNs ? -1 : 1))
  const below = (parent: ReceivedSpan, name: string): ReceivedSpan[] => {
    const direct = children(parent)
    return [...direct.filter((s) => s.name === name), ...direct.flatMap((s) => below(s, name))]
  }
  return { tool, spans, text, children, below }
}

const ms = (span: ReceivedSpan) => Number(span.endNs - span.startNs) / 1e6

/** Children that ran one after another take no longer, together, than their parent. */
function expectSequentialChildrenAddUp(parent: ReceivedSpan, children: ReadonlyArray<ReceivedSpan>, text: string) {
  for (let i = 1; i < children.length; i++)
    expect(children[i]!.startNs + clockSlackNs >= children[i - 1]!.endNs, `${children[i]!.name} overlaps its sibling:\n${text}`).toBe(true)
  const sum = children.reduce((total, s) => total + ms(s), 0)
  expect(sum, text).toBeLessThanOrEqual(ms(parent) + 1)
}

describe('exported span trees', () => {
  it('a references call: tool → target → query → server → LSP request, then rendering; links, attributes and durations', async () => {
    const { client } = await start()
    const line = await lineOf(root, 'src/shapes.ts', 'export function totalArea')
    const args = { target: { path: 'src/shapes.ts', line, matchText: 'totalArea' }, kind: 'references' }
    // Warm: the tree below is a call on a running server.
    expect((await traced(client, 'code_navigate', args)).result.isError).toBe(false)
    const call = await traced(client, 'code_navigate', args)
    expect(call.result.isError).toBe(false)
    const { tool, text, children, below } = await treeOf(call)

    expect(tool.attributes).toMatchObject({ 'codeseam.tool.name': 'code_navigate', 'codeseam.outcome': 'ok' })
    expect(tool.status.code).not.toBe(2)
    const [target, ...afterTarget] = children(tool)
    expect(target?.name, text).toBe('codeseam.target')
    expect(target?.attributes['codeseam.target.kind']).toBe('position')
    expect(typeof target?.attributes['codeseam.file.hash']).toBe('string')
    const queries = below(tool, 'codeseam.query')
    const refs = queries.find((q) => q.attributes['codeseam.operation'] === 'references')
    expect(refs, text).toBeDefined()
    expect(refs?.attributes).toMatchObject({ 'codeseam.provider': 'local:typescript', 'codeseam.result.incomplete': false })
    expect(typeof refs?.attributes['codeseam.root.hash']).toBe('string')
    // The references request went to the TypeScript server, below the query, through server acquisition.
    const requests = below(refs!, 'codeseam.lsp.request')
    const request = requests.find((r) => r.attributes['lsp.method'] === 'textDocument/references')
    expect(request, text).toBeDefined()
    expect(request?.attributes).toMatchObject({ 'codeseam.server.profile': 'typescript', 'codeseam.outcome': 'ok' })
    const acquire = below(refs!, 'codeseam.server.acquire')[0]
    expect(acquire?.attributes['codeseam.server.cold_start'], text).toBe(false)
    // Warm: no start below this call.
    expect(below(tool, 'codeseam.server.start'), text).toEqual([])
    // Rendering comes last, after the query.
    const render = afterTarget.find((s) => s.name === 'codeseam.render')
    expect(render, text).toBeDefined()
    expect(render!.startNs + clockSlackNs >= refs!.endNs).toBe(true)
    // The tool's direct children ran one after another and take no longer than the tool call.
    expectSequentialChildrenAddUp(tool, children(tool), text)
    expectSequentialChildrenAddUp(refs!, children(refs!), text)
  })

  it('a cold start: the first call starts the server and loads its project, below the query that needed them', async () => {
    const { client } = await start()
    // A workspace-wide query: before it asks, the host loads every project the server would (RFC 0008).
    const line = await lineOf(root, 'src/shapes.ts', 'export function totalArea')
    const call = await traced(client, 'code_navigate', {
      target: { path: 'src/shapes.ts', line, matchText: 'totalArea' },
      kind: 'references',
    })
    expect(call.result.isError).toBe(false)
    const { tool, text, below } = await treeOf(call)
    const acquire = below(tool, 'codeseam.server.acquire').find((s) => s.attributes['codeseam.server.profile'] === 'typescript')
    expect(acquire?.attributes, text).toMatchObject({ 'codeseam.server.cold_start': true, 'codeseam.server.restart': false })
    const startSpan = below(acquire!, 'codeseam.server.start')[0]
    expect(startSpan?.attributes, text).toMatchObject({ 'codeseam.server.profile': 'typescript' })
    // The initialize handshake is a request of the start.
    expect(
      below(startSpan!, 'codeseam.lsp.request').map((r) => r.attributes['lsp.method']),
      text,
    ).toContain('initialize')
    const refs = below(tool, 'codeseam.query').find((q) => q.attributes['codeseam.operation'] === 'references')
    const [load] = below(refs!, 'codeseam.project.load')
    expect(load?.attributes, text).toMatchObject({ 'codeseam.server.profile': 'typescript', 'codeseam.result.incomplete': false })
    expect(load?.attributes['codeseam.projects.loaded'], text).toBeGreaterThanOrEqual(1)
    // The load follows the start: the server must run before it can load a project.
    expect(load!.startNs + clockSlackNs >= startSpan!.endNs, text).toBe(true)
    expect(refs?.attributes['codeseam.server.warm'], text).toBe(false)
    // The start is most of the cold call: it is inside, and shorter than, the tool call.
    expect(ms(startSpan!)).toBeLessThanOrEqual(ms(tool))
    // The metrics say the same, at exit: one start of the typescript server, not a restart.
    await mcp!.close()
    const starts = await receiver.waitForMetric(
      (p) => p.metric === 'codeseam.server.starts' && p.attributes['codeseam.server.profile'] === 'typescript',
    )
    expect(starts.value).toBe(1)
    expect(starts.attributes['codeseam.server.restart']).toBe(false)
  })

  it('a crash and restart: the failed call says SERVER_CRASHED by code; the next call restarts the server', async () => {
    const dir = nodePath.join(root, 'fault-log')
    await mkdir(dir, { recursive: true })
    const log = nodePath.join(dir, 'fault.jsonl')
    const config = nodePath.join(dir, 'codeseam.json')
    await writeFile(
      config,
      JSON.stringify({
        profiles: [
          {
            id: 'faulty',
            command: process.execPath,
            args: [faultServer, '--log', log, '--scenario', 'crash', '--method', 'textDocument/hover', '--first-process-only'],
            extensions: { '.flt': 'faultlang' },
            // The fault server runs nothing a workspace chooses: an unknown server's profile must say so.
            untrusted: {},
          },
        ],
      }),
    )
    await writeFile(nodePath.join(root, 'notes.flt'), 'hello fault world\n')
    const { client } = await start(['--config', config])
    const args = { target: { path: 'notes.flt', line: 1, matchText: 'fault' } }

    const crashed = await traced(client, 'code_hover', args)
    expect(crashed.result.isError).toBe(true)
    const first = await treeOf(crashed)
    expect(first.tool.attributes['codeseam.error.code'], first.text).toBe('SERVER_CRASHED')
    expect(first.tool.status).toMatchObject({ code: 2, message: 'SERVER_CRASHED' })
    const failedRequest = first.below(first.tool, 'codeseam.lsp.request').find((r) => r.attributes['lsp.method'] === 'textDocument/hover')
    expect(failedRequest?.attributes, first.text).toMatchObject({ 'codeseam.outcome': 'crashed', 'codeseam.error.code': 'SERVER_CRASHED' })

    const again = await traced(client, 'code_hover', args)
    expect(again.result.isError, JSON.stringify(again.result.content)).toBe(false)
    const second = await treeOf(again)
    // A profile of the user's config is no built-in one: its id is exported as a salted hash, one per process.
    const acquire = second.below(second.tool, 'codeseam.server.acquire')[0]
    const faulty = acquire?.attributes['codeseam.server.profile']
    expect(faulty, second.text).toMatch(/^custom-[0-9a-f]{8}$/)
    expect(acquire?.attributes, second.text).toMatchObject({ 'codeseam.server.restart': true })
    const restart = second.below(acquire!, 'codeseam.server.start')[0]
    expect(restart?.attributes, second.text).toMatchObject({ 'codeseam.server.profile': faulty, 'codeseam.server.restart': true })

    await mcp!.close()
    const crashes = await receiver.waitForMetric(
      (p) => p.metric === 'codeseam.server.crashes' && p.attributes['codeseam.server.profile'] === faulty,
    )
    expect(crashes.value).toBe(1)
    const restarts = await receiver.waitForMetric(
      (p) =>
        p.metric === 'codeseam.server.starts' &&
        p.attributes['codeseam.server.profile'] === faulty &&
        p.attributes['codeseam.server.restart'] === true,
    )
    expect(restarts.value).toBe(1)
  })

  it('an applied rename: preview → diagnostics before and predicted → approval (accepted) → apply → diagnostics after, in that order', async () => {
    const { client } = await start([], true)
    const call = await traced(client, 'code_rename', { target: { path: 'src/shapes.ts', symbol: 'totalArea' }, newName: 'sumOfAreas' })
    expect(call.result.isError, JSON.stringify(call.result.content)).toBe(false)
    expect(((call.result.structuredContent as Json).receipt as Json).status).toBe('applied')
    expect(await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')).toContain('sumOfAreas')
    const { tool, text, children, below } = await treeOf(call)
    const steps = children(tool).map((s) => s.name)
    // The person asked sees a prediction (RFC 0018): the baseline and the in-memory check come before approval.
    const order = [
      'codeseam.edit.preview',
      'codeseam.edit.diagnostics',
      'codeseam.edit.diagnostics',
      'codeseam.edit.approval',
      'codeseam.edit.apply',
      'codeseam.edit.diagnostics',
    ]
    expect(
      steps.filter((name) => order.includes(name)),
      text,
    ).toEqual(order)
    const [preview] = children(tool, 'codeseam.edit.preview')
    expect(preview?.attributes['codeseam.files'], text).toBeGreaterThanOrEqual(2)
    // The rename itself is a seam query below the preview, answered by the server.
    const rename = below(preview!, 'codeseam.query').find((q) => q.attributes['codeseam.operation'] === 'rename')
    expect(rename, text).toBeDefined()
    expect(below(rename!, 'codeseam.lsp.request').map((r) => r.attributes['lsp.method'])).toContain('textDocument/rename')
    expect(children(tool, 'codeseam.edit.approval')[0]?.attributes['codeseam.approval.decision']).toBe('approved')
    expect(children(tool, 'codeseam.edit.diagnostics').map((s) => s.attributes['codeseam.diagnostics.phase'])).toEqual([
      'before',
      'predicted',
      'after',
    ])
    expectSequentialChildrenAddUp(tool, children(tool), text)
  })
})
