import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest'

import { callTool, daemonPidIn, privateRuntimeDir, removeDir, startProxy, waitUntilGone, type ProxyProcess } from './support/daemon.js'
import { requireBuiltCli, startMcp, withDeadline, type McpProcess } from './support/mcp-process.js'
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js'
import { isRunning } from './support/processes.js'
import { copyFixture, lineOf, removeWorkspace } from './support/workspace.js'

// OpenTelemetry export from the real built CLI: a client's `traceparent` in `tools/call` `_meta` is the parent
// of the call's codeseam spans, in process and through the shared daemon; without export nothing is sent and
// none of the SDK is loaded; a bad endpoint is a usage error; a dead collector costs the calls nothing.

type Json = any

/** Spans leave 50 ms after they end; metrics only at exit (so their arrival proves the exit flush). */
const exportEnv = { OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_METRIC_EXPORT_INTERVAL: '600000' }
// The daemon relays pass process.env on (test/support/daemon.ts); the daemon they start inherits it.
Object.assign(process.env, exportEnv)

const moduleLogHook = fileURLToPath(new URL('support/module-log/register.mjs', import.meta.url))
const distDir = nodePath.dirname(requireBuiltCli())
/** Names only the OpenTelemetry SDK, its exporters and codeseam's export module contain. */
const sdkMarkers = ['BatchSpanProcessor', 'OTLPTraceExporter', 'PeriodicExportingMetricReader', 'AsyncLocalStorageContextManager']

let root: string
let receiver: OtlpReceiver
const servers: McpProcess[] = []
const proxies: ProxyProcess[] = []
let runtime: string | undefined

beforeAll(async () => {
  root = await copyFixture()
})

afterEach(async () => {
  await Promise.all([...servers.splice(0), ...proxies.splice(0)].map((p) => p.close().catch(() => {})))
  if (runtime !== undefined) await stopDaemons(runtime)
  runtime = undefined
  await receiver?.close()
})

afterAll(async () => {
  await removeWorkspace(root)
})

/** SIGTERM every daemon of a runtime folder (they flush their export and stop their servers), then removes it. */
async function stopDaemons(dir: string): Promise<void> {
  if (!existsSync(dir)) return
  const { unixSocketFetch } = await import('./support/unix-fetch.js')
  for (const socket of readdirSync(dir).filter((name) => name.endsWith('.sock'))) {
    const pid = await unixSocketFetch(nodePath.join(dir, socket))('http://codeseam/codeseam/health')
      .then(async (response) => ((await response.json()) as { pid: number }).pid)
      .catch(() => undefined)
    if (pid !== undefined && isRunning(pid)) {
      process.kill(pid, 'SIGTERM')
      await waitUntilGone([pid])
    }
  }
  removeDir(dir)
}

function daemonLogs(dir: string): string {
  if (!existsSync(dir)) return ''
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(nodePath.join(dir, name), 'utf8'))
    .join('\n')
}

async function server(args: ReadonlyArray<string>, env: Record<string, string> = exportEnv): Promise<McpProcess> {
  const started = await startMcp(['--root', root, ...args], { env })
  servers.push(started)
  onTestFailed(() => console.error(`codeseam mcp stderr:\n${started.stderr()}\nspans:\n${receiver.tree()}`))
  return started
}

/** A W3C trace context of a (pretend) client span. */
function clientSpan(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex')
  const spanId = randomBytes(8).toString('hex')
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` }
}

/** `code_navigate` references of `totalArea`, aimed by the line its declaration is on. */
async function references(client: McpProcess['client'], meta?: Record<string, string>): Promise<CallToolResult> {
  const line = await lineOf(root, 'src/shapes.ts', 'export function totalArea')
  return (await client.callTool(
    {
      name: 'code_navigate',
      arguments: { target: { path: 'src/shapes.ts', line, matchText: 'totalArea' }, kind: 'references' },
      ...(meta === undefined ? {} : { _meta: meta }),
    },
    undefined,
    { timeout: 180_000 },
  )) as CallToolResult
}

/**
 * The call's codeseam spans in the client's trace, once its first one has arrived: the first codeseam span of
 * the call (the tool span; until tool-lsp opens one, the first seam query) is a child of the client's span,
 * and every codeseam span of the trace hangs below the client's span (none detached, none elsewhere).
 */
async function expectCallUnder(client: { traceId: string; spanId: string }): Promise<ReceivedSpan> {
  await receiver.waitForSpan((s) => s.traceId === client.traceId && s.parentSpanId === client.spanId)
  const trace = receiver.spans.filter((s) => s.traceId === client.traceId)
  const first = [...trace].sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0))[0]!
  expect(first.parentSpanId, receiver.tree(client.traceId)).toBe(client.spanId)
  expect(first.name).toMatch(/^codeseam\./)
  const ids = new Set([client.spanId, ...trace.map((s) => s.spanId)])
  for (const span of trace) expect(ids.has(span.parentSpanId), `${span.name} is detached:\n${receiver.tree(client.traceId)}`).toBe(true)
  expect(first.resource['service.name']).toBe('codeseam')
  expect(typeof first.resource['service.version']).toBe('string')
  return first
}

/** The dist files a process log names (CODESEAM_MODULE_LOG lines: `pid url`). */
function loadedDistFiles(log: string): string[] {
  if (!existsSync(log)) return []
  const files = readFileSync(log, 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url))
    .filter((file) => file.startsWith(distDir + nodePath.sep))
  return [...new Set(files)]
}

const withSdk = (files: ReadonlyArray<string>) =>
  files.filter((file) => sdkMarkers.some((marker) => readFileSync(file, 'utf8').includes(marker))).map((f) => nodePath.basename(f))

describe('trace context from the client', () => {
  it('in process: the call continues the client trace, paths and names stay out, metrics arrive at exit', async () => {
    receiver = await startOtlpReceiver()
    const mcp = await server(['--otel-endpoint', receiver.url])
    const client = clientSpan()
    const result = await references(mcp.client, { traceparent: client.traceparent })
    expect(result.isError).toBe(false)
    await expectCallUnder(client)

    // A call without _meta starts a trace of its own: the client's context does not leak into it.
    const before = new Set(receiver.spans.map((s) => s.spanId))
    expect((await references(mcp.client)).isError).toBe(false)
    const own = await receiver.waitForSpan((s) => !before.has(s.spanId) && s.parentSpanId === '' && s.name.startsWith('codeseam.'))
    expect(own.traceId).not.toBe(client.traceId)

    await mcp.close()
    await withDeadline(mcp.exited, 30_000, 'codeseam mcp to exit')
    // The metric interval is ten minutes: these were flushed at exit.
    const point = await receiver.waitForMetric((p) => p.metric === 'codeseam.operation.duration')
    expect(point.resource['service.name']).toBe('codeseam')
    // Privacy: no symbol name, file path or root folder in anything exported without --otel-include-paths.
    const raw = receiver.rawText()
    for (const secret of ['totalArea', 'shapes.ts', root, nodePath.basename(root)]) expect(raw).not.toContain(secret)
  })

  it('through the shared daemon: the relay passes _meta, the daemon it starts exports; export settings split daemons', async () => {
    receiver = await startOtlpReceiver()
    runtime = privateRuntimeDir()
    const dir = runtime
    const relay = await startProxy(['--root', root, '--otel-endpoint', receiver.url], dir)
    proxies.push(relay)
    onTestFailed(() => console.error(`relay stderr:\n${relay.stderr()}\ndaemon logs:\n${daemonLogs(dir)}\nspans:\n${receiver.tree()}`))
    const client = clientSpan()
    const result = (await relay.client.callTool(
      {
        name: 'code_navigate',
        arguments: {
          target: { path: 'src/shapes.ts', line: await lineOf(root, 'src/shapes.ts', 'export function totalArea'), matchText: 'totalArea' },
          kind: 'references',
        },
        _meta: { traceparent: client.traceparent, tracestate: 'client=1' },
      },
      undefined,
      { timeout: 180_000 },
    )) as CallToolResult
    expect(result.isError).toBe(false)
    await expectCallUnder(client)
    const exporting = await daemonPidIn(dir)

    // A relay without export gets a daemon of its own, and so does one with another endpoint.
    const plain = await startProxy(['--root', root], dir)
    proxies.push(plain)
    const other = await startProxy(['--root', root, '--otel-endpoint', 'http://127.0.0.1:9/'], dir)
    proxies.push(other)
    // The relays answer initialize themselves; a call waits until each one's session is open on its daemon.
    for (const started of [plain, other]) expect((await callTool(started.client, 'code_status', {})).isError).toBe(false)
    expect(readdirSync(dir).filter((name) => name.endsWith('.sock'))).toHaveLength(3)
    // The one that exports still is the same daemon (the second relay did not replace it).
    expect(isRunning(exporting)).toBe(true)

    // Stopped by a signal, the daemon flushes what it holds: its metrics (ten-minute interval) arrive now.
    expect(receiver.points).toHaveLength(0)
    process.kill(exporting, 'SIGTERM')
    await waitUntilGone([exporting])
    const point = await receiver.waitForMetric((p) => p.metric === 'codeseam.operation.duration')
    expect(point.resource['service.name']).toBe('codeseam')
  })
})

describe('without export', () => {
  it('sends nothing and loads none of the SDK; with export on the same check sees it', async () => {
    receiver = await startOtlpReceiver()
    const scratch = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-otel-modules-'))
    try {
      const off = nodePath.join(scratch, 'off.log')
      // Export configured by the environment but disabled: OTEL_SDK_DISABLED wins.
      const mcp = await server([], {
        NODE_OPTIONS: `--import ${moduleLogHook}`,
        CODESEAM_MODULE_LOG: off,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SDK_DISABLED: 'true',
        ...exportEnv,
      })
      expect((await references(mcp.client, { traceparent: clientSpan().traceparent })).isError).toBe(false)
      await mcp.close()
      await withDeadline(mcp.exited, 30_000, 'codeseam mcp to exit')
      const loaded = loadedDistFiles(off)
      expect(loaded.map((f) => nodePath.basename(f))).toContain('cli.js')
      expect(withSdk(loaded)).toEqual([])
      expect(receiver.payloads).toHaveLength(0)

      // The control: the same run with export on loads the SDK's chunks (so the check above can fail).
      const on = nodePath.join(scratch, 'on.log')
      const exporting = await server(['--otel-endpoint', receiver.url], {
        NODE_OPTIONS: `--import ${moduleLogHook}`,
        CODESEAM_MODULE_LOG: on,
        ...exportEnv,
      })
      expect((await references(exporting.client)).isError).toBe(false)
      await exporting.close()
      await withDeadline(exporting.exited, 30_000, 'codeseam mcp to exit')
      expect(withSdk(loadedDistFiles(on)).length).toBeGreaterThan(0)
      expect(receiver.spans.length).toBeGreaterThan(0)
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })
})

/** Runs the CLI to its exit: code, stdout, stderr. */
function runCli(
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [requireBuiltCli(), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as { port: number }).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

describe('--otel-endpoint', () => {
  it('a malformed or non-http endpoint is a usage error (exit 2) on every command', async () => {
    for (const args of [
      ['mcp', '--daemon', 'never', '--otel-endpoint', 'localhost:4318'],
      ['serve', '--otel-endpoint', 'ftp://collector/'],
      ['navigate', 'src/shapes.ts', '--symbol', 'totalArea', '--otel-endpoint', 'not a url'],
    ]) {
      const run = await runCli(args)
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr).toMatch(/--otel-endpoint must be an http:\/\/ or https:\/\/ URL/)
    }
  })

  it('an unreachable collector: tool calls answer as usual, the failure is said once', async () => {
    receiver = await startOtlpReceiver()
    const port = await closedPort()
    // A one-second export timeout: the exporter gives up on a batch (retries included) within it.
    const mcp = await server(['--otel-endpoint', `http://127.0.0.1:${port}`], { ...exportEnv, OTEL_EXPORTER_OTLP_TIMEOUT: '1000' })
    for (let i = 0; i < 3; i++) {
      const result = await references(mcp.client, { traceparent: clientSpan().traceparent })
      expect(result.isError).toBe(false)
      expect((result.structuredContent as Json).files.length).toBeGreaterThan(0)
    }
    await mcp.close()
    await withDeadline(mcp.exited, 30_000, 'codeseam mcp to exit')
    expect(mcp.stderr().match(/exporting traces to .* failed/g) ?? []).toHaveLength(1)
    expect(mcp.stderr()).not.toMatch(/unhandled|UnhandledPromiseRejection/i)
  })

  it('a one-shot command exports its spans before it exits', async () => {
    receiver = await startOtlpReceiver()
    const run = await runCli(
      ['navigate', 'src/shapes.ts', '--symbol', 'totalArea', '--kind', 'references', '--json', '--otel-endpoint', receiver.url],
      {
        // Spans would leave only after 10 minutes: what arrives was flushed at exit.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
    )
    expect(run.code, run.stderr).toBe(0)
    // Already there when the process has exited: no wait.
    expect(
      receiver.spans.some((s) => s.name === 'codeseam.query'),
      receiver.tree(),
    ).toBe(true)
    expect(receiver.points.some((p) => p.metric === 'codeseam.operation.duration')).toBe(true)
    // Without --otel-include-paths no path is exported; with it, workspace-relative ones are (never absolute).
    expect(receiver.rawText()).not.toContain('shapes.ts')
    const named = await runCli(
      [
        'navigate',
        'src/shapes.ts',
        '--symbol',
        'totalArea',
        '--kind',
        'references',
        '--json',
        '--otel-endpoint',
        receiver.url,
        '--otel-include-paths',
      ],
      // The exporters read the standard variables themselves: gzip bodies, which the receiver inflates.
      { OTEL_BSP_SCHEDULE_DELAY: '600000', OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' },
    )
    expect(named.code, named.stderr).toBe(0)
    expect(receiver.payloads.some((p) => p.encoding === 'gzip')).toBe(true)
    expect(
      receiver.spans.some((s) => s.attributes['codeseam.file.path'] === 'src/shapes.ts'),
      receiver.tree(),
    ).toBe(true)
    expect(receiver.rawText()).not.toContain(root)
  })
})
