import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { codeDiagnostics } from '../../src/diagnostics.js'
import { codeNavigate } from '../../src/navigation.js'
import { codeStatus } from '../../src/status.js'
import { codeSymbols } from '../../src/symbols.js'
import { startRealHost, structured, waitForStatus, type RealHost } from '../support/real-host.js'

// The fault server ships with @codeseam/lsp-local's tests: a real stdio language server (vscode-languageserver)
// that can be told to begin work-done progress and never end it, i.e. to stay "indexing" forever.
const faultServer = nodePath.join(
  nodePath.dirname(createRequire(import.meta.url).resolve('@codeseam/lsp-local/package.json')),
  'test/fault-server/server.mjs',
)

const mainText = ['import { greet } from "./lib"', '', 'function main() {', '  greet("world")', '}', ''].join('\n')
const libText = ['export function greet(name) {', '  return name', '}', ''].join('\n')

describe('a server that is still indexing', { timeout: 120_000 }, () => {
  let root: string
  let real: RealHost

  beforeAll(async () => {
    root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'tool-lsp-indexing-')))
    await writeFile(nodePath.join(root, 'main.fault'), mainText)
    await writeFile(nodePath.join(root, 'lib.fault'), libText)
    real = await startRealHost(root, {
      builtins: false,
      profiles: [
        {
          id: 'fault',
          command: process.execPath,
          args: [faultServer, '--scenario', 'endless-progress'],
          extensions: { '.fault': 'fault' },
          operations: ['definition', 'references', 'hover', 'documentSymbols', 'workspaceSymbols', 'diagnostics'],
          readiness: 'progressQuiet',
          readinessTimeoutMs: 1_000,
        },
      ],
    })
  }, 60_000)

  afterAll(async () => {
    await real?.dispose()
    await rm(root, { recursive: true, force: true })
  })

  it('never presents its answer as a ready one: the result says indexing and carries a notice', async () => {
    const line = mainText.split('\n').findIndex((l) => l.includes('greet("world")')) + 1
    const args = { target: { path: 'main.fault', line, matchText: 'greet' }, kind: 'definition' }
    // The first call starts the server; its progress begins right after the handshake, so wait for the host
    // to report the indexing state before asking again.
    await real.call(codeNavigate, args)
    await waitForStatus(real.lsp, (s) => s.providerId === 'local:fault' && s.root === root && s.state === 'indexing')
    const outcome = await real.call(codeNavigate, args)
    // The host answers after its bounded readiness wait, marking the answer as coming from an indexing server.
    const result = structured(outcome)
    expect(result.readiness.status).toBe('indexing')
    expect(result.notice).toMatch(/still indexing/)
    expect(outcome.text).toMatch(/server: indexing/)
    expect(result.files.map((f: any) => f.path)).toEqual(['lib.fault'])
    const status = structured(await real.call(codeStatus, {}))
    const fault = status.servers.find((s: any) => s.provider === 'local:fault' && s.rootId !== undefined)
    expect(fault.state).toBe('indexing')
    expect(status.notice).toMatch(/still starting or indexing/)
  })
})

describe('a language without a server', { timeout: 120_000 }, () => {
  let root: string
  let real: RealHost
  // Ruby: a language no backend builds in (Go, Rust and C/C++ are built in now; see the clangd case below).
  const phpSource = '<?php\nfunction tool() {\n  return 1;\n}\n'

  beforeAll(async () => {
    root = await realpath(await mkdtemp(nodePath.join(tmpdir(), 'tool-lsp-noserver-')))
    await mkdir(nodePath.join(root, 'lib'))
    await writeFile(nodePath.join(root, 'lib/tool.php'), phpSource)
    // A C file, so that a machine without clangd has a real gap in a workspace-wide answer.
    await writeFile(nodePath.join(root, 'lib/native.c'), 'int native(void) { return 1; }\n')
    await writeFile(nodePath.join(root, 'index.ts'), 'export const one = 1\n')
    real = await startRealHost(root)
  }, 60_000)

  afterAll(async () => {
    await real?.dispose()
    await rm(root, { recursive: true, force: true })
  })

  it('file tools fail with UNAVAILABLE and say what to install', async () => {
    for (const outcome of [
      await real.call(codeSymbols, { path: 'lib/tool.php' }),
      await real.call(codeNavigate, {
        target: { path: 'lib/tool.php', line: phpSource.split('\n').findIndex((l) => l.includes('function tool')) + 1, matchText: 'tool' },
        kind: 'references',
      }),
      await real.call(codeDiagnostics, { path: 'lib/tool.php' }),
    ]) {
      expect(outcome.ok).toBe(false)
      if (outcome.ok) continue
      expect(outcome.error.code).toBe('UNAVAILABLE')
      expect(outcome.error.message).toMatch(/no language server handles \.php files.*intelephense/)
    }
  })

  it('a workspace query on a machine without clangd names the gap instead of looking degraded', async () => {
    const result = structured(await real.call(codeSymbols, { query: 'one' }))
    expect(result.matches.map((m: any) => m.name)).toContain('one')
    const missing = real.host.status().filter((s) => s.state === 'unavailable')
    if (missing.length > 0) {
      expect(result.readiness.status).not.toBe('degraded')
      expect(result.notice).toMatch(/not covered, no server installed/)
    }
  })
})
