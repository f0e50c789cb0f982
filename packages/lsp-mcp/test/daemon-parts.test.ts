import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, describe, expect, it, vi } from 'vitest'

import type { LanguageHosts } from '../src/daemon/language-hosts.js'
import { daemonKey, ensurePrivateDir, runtimeDir, socketPathFor } from '../src/daemon/runtime-dir.js'
import type { DaemonSession } from '../src/daemon/sessions.js'
import { daemonShutdown } from '../src/daemon/shutdown.js'
import { checkCeiling, sessionParamsFrom, sessionQuery } from '../src/daemon/session-params.js'
import { createMcpShell } from '../src/mcp-shell.js'
import { initializeAnswer } from '../src/shell-answers.js'

// The daemon's pure parts: which daemon a session joins, the runtime folder's checks, session parameters.

const scratch = mkdtempSync(nodePath.join(tmpdir(), 'codeseam-daemon-parts-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('daemonKey', () => {
  const env = { PATH: '/usr/bin:/bin', HOME: '/home/a' }

  it('is stable for the same inputs and changes with what decides which servers and interpreters run', () => {
    const base = daemonKey({ env })
    expect(daemonKey({ env: { ...env } })).toBe(base)
    expect(daemonKey({ env: { ...env, VIRTUAL_ENV: '/repo/.venv' } })).not.toBe(base)
    expect(daemonKey({ env: { ...env, PYENV_VERSION: '3.12' } })).not.toBe(base)
    expect(daemonKey({ env, envAllow: ['JAVA_HOME'] })).not.toBe(base)
    expect(daemonKey({ env, limits: { maxServers: 2 } })).not.toBe(base)
    expect(daemonKey({ env, limits: { memoryBudgetBytes: 2 ** 30 } })).not.toBe(base) // one budget per daemon (RFC 0033)
    // --no-index is another daemon (its sessions never use a stored index, RFC 0034); the default keeps the old key.
    expect(daemonKey({ env, index: false })).not.toBe(base)
    expect(daemonKey({ env, index: true })).toBe(base)
    // A variable outside the list does not split daemons, unless --env-allow names it (then its value does).
    expect(daemonKey({ env: { ...env, TERM: 'xterm' } })).toBe(base)
    expect(daemonKey({ env: { ...env, JAVA_HOME: '/a' }, envAllow: ['JAVA_HOME'] })).not.toBe(
      daemonKey({ env: { ...env, JAVA_HOME: '/b' }, envAllow: ['JAVA_HOME'] }),
    )
  })

  // Issue 32: two clients whose PATH differed (one launched through npx) started two daemons for one user and repository.
  it('keys PATH by where it resolves the servers, toolchains and interpreters: a folder of other tools does not split daemons', () => {
    const npxBin = nodePath.join(scratch, 'npx-bin')
    const goBin = nodePath.join(scratch, 'go-bin')
    for (const [dir, name] of [
      [npxBin, 'some-cli'],
      [goBin, 'gopls'],
    ] as const) {
      mkdirSync(dir, { recursive: true })
      writeFileSync(nodePath.join(dir, name), '#!/bin/sh\n')
      chmodSync(nodePath.join(dir, name), 0o755)
    }
    const base = daemonKey({ env })
    expect(daemonKey({ env: { ...env, PATH: `${npxBin}:${env.PATH}` } })).toBe(base)
    // A gopls that PATH now finds first: another server would run.
    expect(daemonKey({ env: { ...env, PATH: `${goBin}:${env.PATH}` } })).not.toBe(base)
    // Named by --env-allow, PATH counts whole.
    expect(daemonKey({ env: { ...env, PATH: `${npxBin}:${env.PATH}` }, envAllow: ['PATH'] })).not.toBe(
      daemonKey({ env, envAllow: ['PATH'] }),
    )
  })

  it('hashes the config file by its content, and refuses a missing one', () => {
    const config = nodePath.join(scratch, 'codeseam.json')
    writeFileSync(config, '{"limits":{"maxServers":3}}')
    const first = daemonKey({ env, configFile: config })
    expect(daemonKey({ env, configFile: config })).toBe(first)
    writeFileSync(config, '{"limits":{"maxServers":4}}')
    expect(daemonKey({ env, configFile: config })).not.toBe(first)
    expect(() => daemonKey({ env, configFile: nodePath.join(scratch, 'missing.json') })).toThrow(/cannot be read/)
  })
})

describe('daemonKey and OpenTelemetry export', () => {
  const env = { PATH: '/usr/bin:/bin', HOME: '/home/a' }

  it('is unchanged while export is off, and splits on the endpoint, include-paths and every OTEL_* value once on', () => {
    const off = daemonKey({ env })
    // Off: no endpoint anywhere, or the SDK disabled; OTEL_* values then decide nothing.
    expect(daemonKey({ env, otel: {} })).toBe(off)
    expect(daemonKey({ env, otel: { includePaths: true } })).toBe(off)
    expect(daemonKey({ env: { ...env, OTEL_BSP_SCHEDULE_DELAY: '50' } })).toBe(off)
    expect(daemonKey({ env: { ...env, OTEL_SDK_DISABLED: 'true' }, otel: { endpoint: 'http://a:4318' } })).toBe(off)
    const on = daemonKey({ env, otel: { endpoint: 'http://a:4318' } })
    expect(on).not.toBe(off)
    expect(daemonKey({ env, otel: { endpoint: 'http://a:4318' } })).toBe(on)
    expect(daemonKey({ env, otel: { endpoint: 'http://b:4318' } })).not.toBe(on)
    expect(daemonKey({ env, otel: { endpoint: 'http://a:4318', includePaths: true } })).not.toBe(on)
    expect(daemonKey({ env: { ...env, OTEL_EXPORTER_OTLP_HEADERS: 'x-token=1' }, otel: { endpoint: 'http://a:4318' } })).not.toBe(on)
    // Export on through the environment alone.
    const byEnv = daemonKey({ env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' } })
    expect(byEnv).not.toBe(off)
    expect(daemonKey({ env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SERVICE_NAME: 'x' } })).not.toBe(byEnv)
  })
})

describe('the runtime folder', () => {
  it('is CODESEAM_RUNTIME_DIR, else under XDG_RUNTIME_DIR, else per uid in the temp folder', () => {
    expect(runtimeDir({ CODESEAM_RUNTIME_DIR: '/x/y' })).toBe('/x/y')
    expect(runtimeDir({ XDG_RUNTIME_DIR: '/run/user/1000' })).toBe('/run/user/1000/codeseam')
    expect(runtimeDir({})).toMatch(/codeseam-\d+$/)
    expect(socketPathFor('/x', 'abc')).toBe('/x/daemon-abc.sock')
  })

  it('is created 0700, and refused when open to others or a symbolic link', () => {
    const fresh = nodePath.join(scratch, 'fresh')
    expect(ensurePrivateDir(fresh)).toBe(fresh)
    const open = nodePath.join(scratch, 'open')
    ensurePrivateDir(open)
    chmodSync(open, 0o755)
    expect(() => ensurePrivateDir(open)).toThrow(/mode is 755/)
    const link = nodePath.join(scratch, 'link')
    symlinkSync(fresh, link)
    expect(() => ensurePrivateDir(link)).toThrow(/symbolic link/)
  })
})

describe('session parameters', () => {
  it('round-trip through the URL query a proxy sends', () => {
    const params = { roots: ['/a', '/b c'], cwd: '/w', trust: 'trusted' as const, edits: 'allow' as const, disable: ['code_format'] }
    expect(sessionParamsFrom(sessionQuery(params))).toEqual(params)
  })

  it('default to the ceiling, refuse unknown names and bad values', () => {
    expect(sessionParamsFrom(new URLSearchParams(''))).toMatchObject({ trust: 'untrusted', edits: 'ask' })
    expect(sessionParamsFrom(new URLSearchParams(''), { trust: 'trusted', edits: 'read-only' })).toMatchObject({
      trust: 'trusted',
      edits: 'read-only',
    })
    expect(() => sessionParamsFrom(new URLSearchParams('rooot=/a'))).toThrow(/unknown session parameter "rooot"/)
    expect(() => sessionParamsFrom(new URLSearchParams('trust=yes'))).toThrow(/trust must be/)
    expect(() => sessionParamsFrom(new URLSearchParams('edits=sometimes'))).toThrow(/edits must be/)
  })

  it('are refused above the ceiling, with the code and the flag that would allow them', () => {
    const ask = { trust: 'untrusted' as const, edits: 'ask' as const, disable: [] }
    expect(() => checkCeiling({ ...ask, trust: 'trusted' }, { trust: 'untrusted' })).toThrow(/--trust trusted/)
    expect(() => checkCeiling({ ...ask, edits: 'allow' }, { edits: 'ask' })).toThrow(/without --allow-edits/)
    expect(() => checkCeiling(ask, { edits: 'read-only' })).toThrow(/--read-only/)
    expect(() => checkCeiling({ ...ask, edits: 'read-only' }, { trust: 'untrusted', edits: 'read-only' })).not.toThrow()
    expect(() => checkCeiling({ ...ask, trust: 'trusted', edits: 'allow' }, {})).not.toThrow()
  })
})

// The stdio relay answers `initialize` itself (daemon/proxy.ts): its answer must be the one the server gives.
describe('the answer to initialize', () => {
  it.each(['2024-11-05', '2025-06-18', LATEST_PROTOCOL_VERSION, '1999-01-01'])(
    'for protocol version %s is the one the MCP server (the SDK Server of mcp-shell.ts) gives',
    async (version) => {
      const [client, server] = InMemoryTransport.createLinkedPair()
      const shell = createMcpShell([], async () => ({ content: [] }), {
        getValidator: () => {
          throw new Error('initialize validates nothing')
        },
      })
      await shell.connect(server)
      const answered = new Promise<JSONRPCMessage>((resolve) => (client.onmessage = resolve))
      await client.start()
      await client.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'parts', version: '1' } },
      })
      expect(await answered).toEqual({ jsonrpc: '2.0', id: 1, result: initializeAnswer(version) })
      expect(initializeAnswer(version).protocolVersion).toBe(version === '1999-01-01' ? LATEST_PROTOCOL_VERSION : version)
      await shell.close()
    },
  )
})

describe('the idle exit', () => {
  // Fake timers: the idle period passes without waiting for it. A session that takes longer to open than the idle
  // period (a loaded machine: its host and roots attach) is not cut off by the timer armed before it came.
  it('waits for a session being opened, and arms again once it closed', async () => {
    vi.useFakeTimers()
    try {
      const sessions = new Map<string, DaemonSession>()
      let disposed = 0
      const hosts = { disposeAll: async () => void disposed++ } as unknown as LanguageHosts
      const shutdown = daemonShutdown({ sessions, hosts, idleMs: 1_000 })
      shutdown.armIdle()
      let finishOpening: () => void = () => {}
      const opened = shutdown.opening(() => new Promise<void>((resolve) => (finishOpening = resolve)))
      await vi.advanceTimersByTimeAsync(5_000)
      expect(shutdown.isClosing()).toBe(false)
      sessions.set('s', {} as DaemonSession)
      finishOpening()
      await opened
      await vi.advanceTimersByTimeAsync(5_000)
      expect(shutdown.isClosing()).toBe(false)
      sessions.delete('s')
      shutdown.armIdle()
      await vi.advanceTimersByTimeAsync(1_000)
      expect(shutdown.isClosing()).toBe(true)
      expect(await shutdown.closed).toMatch(/^no session for 1 s/)
      expect(disposed).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })
})
