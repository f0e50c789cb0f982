import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest'

import { readConfigFile } from '@codeseam/lsp-local'

import { collectTools } from '../src/tool-set.js'
import { slowHoverSetup, waitForLog } from './support/fault-server.js'
import { requireBuiltCli, startMcp, withDeadline, type McpProcess } from './support/mcp-process.js'
import { commandLineOf, descendantsOf, isRunning } from './support/processes.js'
import { copyFixture, removeWorkspace } from './support/workspace.js'

// Policies, cancellation and shutdown of `codeseam mcp` as a child process with real language servers.

type Json = any

let root: string
const started: McpProcess[] = []

async function start(args: ReadonlyArray<string>, options: Parameters<typeof startMcp>[1] = {}): Promise<McpProcess> {
  const mcp = await startMcp(['--root', root, ...args], options)
  started.push(mcp)
  onTestFailed(() => console.error(`codeseam mcp ${args.join(' ')} stderr:\n${mcp.stderr()}`))
  return mcp
}

async function callRaw(mcp: McpProcess, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult
}

beforeAll(async () => {
  root = await copyFixture()
})

afterEach(async () => {
  await Promise.all(started.splice(0).map((mcp) => mcp.close()))
})

afterAll(async () => {
  await removeWorkspace(root)
})

describe('tool list', () => {
  it('--read-only lists only the read tools; a mutating tool cannot be called', async () => {
    const mcp = await start(['--read-only'])
    const names = (await mcp.client.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(collectTools({ readOnly: true }).map((t) => t.name))
    expect(names).toContain('code_navigate')
    expect(names).not.toContain('code_rename')
    await expect(callRaw(mcp, 'code_rename', { target: { path: 'src/shapes.ts', symbol: 'Circle' }, newName: 'Round' })).rejects.toThrow(
      /unknown tool "code_rename"/,
    )
    expect(await readFile(nodePath.join(root, 'src/shapes.ts'), 'utf8')).toContain('class Circle')
  })

  it('--disable-tool leaves one tool out, and the list does not change when servers start', async () => {
    const mcp = await start(['--disable-tool', 'code_inlay_hints'])
    const before = (await mcp.client.listTools()).tools
    expect(before.map((t) => t.name)).not.toContain('code_inlay_hints')
    expect(before.map((t) => t.name)).toContain('code_hover')
    const hover = await callRaw(mcp, 'code_hover', { target: { path: 'src/shapes.ts', symbol: 'Square' } })
    expect(hover.isError).toBe(false)
    expect((await mcp.client.listTools()).tools).toEqual(before)
  })

  it('refuses to start with an unknown --disable-tool name, saying which tools exist', async () => {
    await expect(start(['--disable-tool', 'code_teleport'])).rejects.toThrow()
  })
})

/** Runs `codeseam mcp ARGS` with stdin closed; resolves with its exit code and output. */
function runMcpOnce(args: ReadonlyArray<string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [requireBuiltCli(), 'mcp', '--daemon', 'never', ...args],
      { encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    )
    child.stdin?.end()
  })
}

describe('start', () => {
  it('a --root that is missing or not a folder refuses to start before serving, with exit code 1 and why', async () => {
    const missing = nodePath.join(root, 'no-such-folder')
    const gone = await runMcpOnce(['--root', missing])
    expect(gone.code).toBe(1)
    expect(gone.stderr).toContain(`error NOT_FOUND: workspace root ${missing} does not exist`)
    expect(gone.stdout).toBe('')
    const file = nodePath.join(root, 'src', 'shapes.ts')
    const notFolder = await runMcpOnce(['--root', file])
    expect(notFolder.code).toBe(1)
    expect(notFolder.stderr).toContain(`error INVALID_ARGUMENT: workspace root ${file} is not a folder`)
  })

  it('an unknown --disable-tool name refuses to start with exit code 1, naming the tools', async () => {
    const run = await runMcpOnce(['--root', root, '--disable-tool', 'code_teleport'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('error NOT_FOUND: no tool is named "code_teleport" (tools: ')
    for (const tool of collectTools()) expect(run.stderr).toContain(tool.name)
  })

  it('a session that cannot open (a --config that does not parse): the list is served, every call answers the error', async () => {
    const config = nodePath.join(root, 'broken-codeseam.json')
    await writeFile(config, '{ "servers": [ not json')
    const expected = await readConfigFile(config).then(
      () => undefined,
      (error: unknown) => error as { code: string; message: string },
    )
    expect(expected?.code).toBeDefined()
    const mcp = await start(['--config', config])
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).toEqual(collectTools().map((t) => t.name))
    for (const name of ['code_status', 'code_hover']) {
      const result = await callRaw(mcp, name, { target: { path: 'src/shapes.ts', symbol: 'Square' } })
      expect(result.isError).toBe(true)
      const error = (result._meta as Json)['codeseam/error']
      expect(error.code).toBe(expected?.code)
      expect(error.message).toContain(expected?.message)
      expect((result.content[0] as Json).text).toContain(`error ${expected?.code}: the workspace session could not be opened`)
    }
    expect(mcp.stderr()).toContain('codeseam mcp: the workspace session could not be opened')
  })
})

describe('approval policy without elicitation', () => {
  const target = { path: 'src/shapes.ts', symbol: 'Square' }

  it('previews only by default: the change is denied with what to do, nothing is written', async () => {
    const mcp = await start([])
    const before = await readFile(nodePath.join(root, 'src/main.ts'), 'utf8')
    const result = await callRaw(mcp, 'code_rename', { target, newName: 'Box' })
    expect(result.isError).toBe(true)
    const error = result._meta?.['codeseam/error'] as Json
    expect(error.code).toBe('APPROVAL_DENIED')
    expect(error.data.receipt.approval.deniedReason).toContain('--allow-edits')
    expect(error.data.receipt.preview.files.map((f: Json) => f.path)).toContain('src/main.ts')
    expect(await readFile(nodePath.join(root, 'src/main.ts'), 'utf8')).toBe(before)
  })

  it('--allow-edits applies a previewable change', async () => {
    const mcp = await start(['--allow-edits'])
    const result = await callRaw(mcp, 'code_rename', { target, newName: 'Box' })
    expect(result.isError, JSON.stringify(result.content)).toBe(false)
    expect((result.structuredContent as Json).receipt.status).toBe('applied')
    expect(await readFile(nodePath.join(root, 'src/main.ts'), 'utf8')).toContain('new Box(2)')
  })
})

describe('cancellation', () => {
  it('notifications/cancelled ends a slow call and cancels the language-server request', async () => {
    const { config, log } = await slowHoverSetup(root)
    const mcp = await start(['--config', config])
    const controller = new AbortController()
    const pending = mcp.client.callTool(
      { name: 'code_hover', arguments: { target: { path: 'notes.slow', line: 1, matchText: 'slow' } } },
      undefined,
      { signal: controller.signal, timeout: 600_000 },
    )
    const settled = pending.then(
      () => 'answered',
      (error: Error) => `rejected: ${error.message}`,
    )
    await waitForLog(log, (e) => e.event === 'received' && e.method === 'textDocument/hover', 'the hover request to reach the server')
    controller.abort('the user pressed stop')
    expect(await withDeadline(settled, 60_000, 'the cancelled call to end')).toMatch(/^rejected/)
    const cancelled = await waitForLog(
      log,
      (e) => e.event === 'received' && e.method === '$/cancelRequest',
      'the server to get $/cancelRequest',
    )
    expect(cancelled).toBeDefined()
    // The server is still in business after a cancellation.
    const status = await callRaw(mcp, 'code_status', {})
    expect(status.isError).toBe(false)
  })
})

describe('shutdown', () => {
  async function startedWithServers(): Promise<{ mcp: McpProcess; servers: number[] }> {
    const mcp = await start([])
    const result = await callRaw(mcp, 'code_navigate', { target: { path: 'src/shapes.ts', symbol: 'Circle' }, kind: 'references' })
    expect(result.isError, JSON.stringify(result.content)).toBe(false)
    const servers = descendantsOf(mcp.pid)
    expect(servers.map(commandLineOf).join('\n')).toMatch(/tsc|typescript/)
    return { mcp, servers }
  }

  it('when the client closes stdin, the server and every language server it started exit', async () => {
    const { mcp, servers } = await startedWithServers()
    await mcp.close()
    await withDeadline(mcp.exited, 60_000, 'the server process to exit')
    expect(isRunning(mcp.pid)).toBe(false)
    expect(servers.filter(isRunning).map(commandLineOf)).toEqual([])
    expect(mcp.stderr()).toContain('stopped (the client closed stdin; language servers stopped')
  })

  it('on SIGTERM, the server stops its language servers and exits', async () => {
    const { mcp, servers } = await startedWithServers()
    process.kill(mcp.pid, 'SIGTERM')
    await withDeadline(mcp.exited, 60_000, 'the server process to exit')
    expect(servers.filter(isRunning).map(commandLineOf)).toEqual([])
    expect(mcp.stderr()).toContain('stopped (received SIGTERM; language servers stopped')
  })
})
