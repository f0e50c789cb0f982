/**
 * PENDING (not matched by the test glob): the attack workspaces and the resource limits against the REAL
 * host, through its public API only. They pass once the host applies src/trust.ts (planSpawn) and
 * src/limits.ts (heap caps, process cap, memory watcher) — see the wiring in docs/security.md
 * ("Wiring"). Then rename this file to security-host.test.ts.
 */
import * as nodePath from 'node:path'

import { LspError, createLsp, type LspProviderStatus, type LspService } from '@codeseam/lsp'
import { afterAll, afterEach, describe, expect, test } from 'vitest'

import { builtinProfiles, createLocalHost, type HostOptions, type LocalHost, type TrustLevel } from '../src/index.js'
import { lookUp } from '../src/profile/executables.js'
import { LeakCheck, positionOf, typeScriptLanguageServerInstead } from './helpers.js'
import { fakeNpmDir, prepareAttack, type AttackWorkspace } from './fixtures/untrusted/prepare.js'

const realPython = lookUp('python3', process.env['PATH'] ?? '', { skipShims: true }) ?? '/usr/bin/python3'
const leaks = new LeakCheck()
const cleanups: Array<() => Promise<void> | void> = []
const originalPath = process.env['PATH']

afterEach(async () => {
  await leaks.record()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  process.env['PATH'] = originalPath
})
afterAll(async () => {
  expect(await leaks.survivors(), 'server processes still alive after dispose').toEqual([])
})

/** A host with one attack workspace attached at a trust level. */
async function attach(name: AttackWorkspace, trust: TrustLevel, options: HostOptions) {
  const attack = prepareAttack(name)
  const host = await createLocalHost({ envAllow: ['CODESEAM_REAL_PYTHON', 'CODESEAM_MARKER'], ...options })
  const lsp = createLsp()
  cleanups.push(
    attack.remove,
    () => host.dispose(),
    () => lsp.dispose(),
  )
  await host.attach(lsp, [{ root: attack.root, trust }])
  return { ...attack, host, lsp }
}

async function rejection(promise: Promise<unknown>): Promise<LspError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(LspError)
    return error as LspError
  }
  throw new Error('expected the query to fail')
}

const tlsOnly: HostOptions = {
  profiles: [
    { id: 'typescript', enabled: false },
    // A careless user profile: no tsserver.path, so the server would prefer the workspace's TypeScript.
    { id: 'typescript-language-server', enabled: true, initializationOptions: { tsserver: { useSyntaxServer: 'never' } } },
  ],
}

describe('untrusted roots: no attack runs, queries answer', () => {
  test('typescript-language-server: neither the workspace TypeScript nor the tsconfig plugin loads', { timeout: 180_000 }, async () => {
    const w = await attach('ts', 'untrusted', tlsOnly)
    const hover = await w.lsp.query({
      operation: 'hover',
      root: w.root,
      path: 'src/main.ts',
      position: positionOf(w.root, 'src/main.ts', 'shout'),
    })
    expect(hover.hover?.contents).toMatch(/shout: string/)
    expect(w.markers()).toEqual([])
  })

  test('native TypeScript: the tsconfig plugin never loads; automatic type acquisition never runs npm', { timeout: 180_000 }, async () => {
    const ts = await attach('ts', 'untrusted', {})
    const hover = await ts.lsp.query({
      operation: 'hover',
      root: ts.root,
      path: 'src/main.ts',
      position: positionOf(ts.root, 'src/main.ts', 'shout'),
    })
    expect(hover.hover?.contents).toMatch(/shout: string/)
    expect(ts.markers()).toEqual([])

    const js = prepareAttack('js-ata')
    const npm = fakeNpmDir(nodePath.join(js.root, 'npm.marker'))
    cleanups.push(js.remove, npm.remove)
    process.env['PATH'] = `${npm.dir}${nodePath.delimiter}${originalPath ?? ''}`
    process.env['CODESEAM_MARKER'] = nodePath.join(js.root, 'npm.marker')
    const host = await createLocalHost({ envAllow: ['CODESEAM_MARKER'] })
    const lsp = createLsp()
    cleanups.push(
      () => host.dispose(),
      () => lsp.dispose(),
    )
    await host.attach(lsp, [{ root: js.root, trust: 'untrusted' }])
    const jsHover = await lsp.query({
      operation: 'hover',
      root: js.root,
      path: 'app.js',
      position: positionOf(js.root, 'app.js', 'padded ='),
    })
    expect(jsHover.hover?.contents).toMatch(/padded/)
    // A workspace-wide query after the hover: the project (and its type acquisition) has been processed.
    await lsp.query({ operation: 'workspaceSymbols', root: js.root, query: 'padded' })
    expect(js.markers()).toEqual([])
  })

  test(
    'pyright: no interpreter the workspace chooses runs (relative PATH entry, pyrightconfig venv, .python-version)',
    { timeout: 180_000 },
    async () => {
      process.env['PATH'] = `bin${nodePath.delimiter}${originalPath ?? ''}`
      process.env['CODESEAM_REAL_PYTHON'] = realPython
      const w = await attach('py', 'untrusted', {})
      const hover = await w.lsp.query({
        operation: 'hover',
        root: w.root,
        path: 'pkg/main.py',
        position: positionOf(w.root, 'pkg/main.py', 'join'),
      })
      expect(hover.hover?.contents).toMatch(/join/)
      expect(w.markers()).toEqual([])
    },
  )

  test('clangd: even a user --query-driver glob matching the workspace never runs its compiler', { timeout: 120_000 }, async ({ skip }) => {
    // clangd is optional: found (or not) by the lookup the built-in profile uses.
    const clangdMissing = (await builtinProfiles()).find((p) => p.id === 'clangd')?.unavailable
    skip(clangdMissing !== undefined, `clangd: ${clangdMissing}`)
    const attack = prepareAttack('c')
    cleanups.push(attack.remove)
    const host = await createLocalHost({
      profiles: [{ id: 'clangd', args: ['--background-index=false', '--log=error', `--query-driver=${attack.root}/**`] }],
    })
    const lsp = createLsp()
    cleanups.push(
      () => host.dispose(),
      () => lsp.dispose(),
    )
    await host.attach(lsp, [{ root: attack.root, trust: 'untrusted' }])
    const hover = await lsp.query({
      operation: 'hover',
      root: attack.root,
      path: 'main.c',
      position: positionOf(attack.root, 'main.c', 'twice(21)'),
    })
    expect(hover.hover?.contents).toMatch(/twice/)
    expect(attack.markers()).toEqual([])
  })

  test('a user profile whose command is inside the workspace is refused with UNTRUSTED, and never runs', { timeout: 60_000 }, async () => {
    const attack = prepareAttack('server')
    cleanups.push(attack.remove)
    const host = await createLocalHost({
      builtins: false,
      requestTimeoutMs: 15_000,
      profiles: [{ id: 'evil', command: nodePath.join(attack.root, 'evil-server'), args: [], extensions: { '.evil': 'evil' } }],
    })
    const lsp = createLsp()
    cleanups.push(
      () => host.dispose(),
      () => lsp.dispose(),
    )
    await host.attach(lsp, [{ root: attack.root, trust: 'untrusted' }])
    const error = await rejection(lsp.query({ operation: 'documentSymbols', root: attack.root, path: 'main.evil' }))
    expect(error.code).toBe('UNTRUSTED')
    expect(error.message).toMatch(/inside the workspace.*trusted/)
    expect(attack.markers()).toEqual([])
  })
})

describe('trusted roots: the documented behaviour', () => {
  test('pyright runs the `python3` a relative PATH entry finds (the user vetted the root)', { timeout: 180_000 }, async () => {
    process.env['PATH'] = `bin${nodePath.delimiter}${originalPath ?? ''}`
    process.env['CODESEAM_REAL_PYTHON'] = realPython
    const w = await attach('py', 'trusted', {})
    await w.lsp.query({ operation: 'hover', root: w.root, path: 'pkg/main.py', position: positionOf(w.root, 'pkg/main.py', 'join') })
    expect(w.markers()).toEqual(['python-path.marker'])
  })

  test('a user profile inside the workspace runs', { timeout: 60_000 }, async () => {
    const attack = prepareAttack('server')
    cleanups.push(attack.remove)
    const host = await createLocalHost({
      builtins: false,
      requestTimeoutMs: 15_000,
      profiles: [{ id: 'evil', command: nodePath.join(attack.root, 'evil-server'), args: [], extensions: { '.evil': 'evil' } }],
    })
    const lsp = createLsp()
    cleanups.push(
      () => host.dispose(),
      () => lsp.dispose(),
    )
    await host.attach(lsp, [{ root: attack.root, trust: 'trusted' }])
    // The fake server exits at once: the query fails (a crash or, if the exit goes unnoticed, a timeout), never an empty result.
    const error = await rejection(lsp.query({ operation: 'documentSymbols', root: attack.root, path: 'main.evil' }))
    expect(['SERVER_CRASHED', 'UNAVAILABLE', 'SERVER_ERROR', 'TIMEOUT']).toContain(error.code)
    expect(attack.markers()).toEqual(['server.marker'])
  })
})

describe('resource limits through the host', () => {
  // `limits` is the config field the wiring adds to HostOptions (see docs/security.md).
  const withLimits = (limits: Record<string, number>, rest: HostOptions = {}): HostOptions => ({ ...rest, limits }) as HostOptions

  test('a server over its memory ceiling is restarted and reported in status and the next result', { timeout: 180_000 }, async () => {
    // The host's watchdog is shared (not in a server's tree) and the native server stays under 64 MiB on
    // this fixture, so use typescript-language-server: its process tree (node + tsserver) is far above.
    const tsls = typeScriptLanguageServerInstead
    const w = await attach(
      'ts',
      'untrusted',
      withLimits({ maxServerMemoryBytes: 64 * 1024 ** 2, memoryCheckIntervalMs: 100, memoryBreachSamples: 1 }, tsls),
    )
    const restarted = new Promise<LspProviderStatus>((resolve) => {
      const off = w.lsp.onStatusChange((status) => {
        if (/ceiling/.test(status.reason ?? '')) {
          off()
          resolve(status)
        }
      })
    })
    await w.lsp.query({ operation: 'hover', root: w.root, path: 'src/main.ts', position: positionOf(w.root, 'src/main.ts', 'shout') })
    const status = await restarted
    expect(status.reason).toMatch(/over the 64 MiB ceiling/)
    const next = await w.lsp.query({
      operation: 'hover',
      root: w.root,
      path: 'src/main.ts',
      position: positionOf(w.root, 'src/main.ts', 'shout'),
    })
    expect(next.meta.status).toBe('degraded')
  })

  test(
    'the process cap holds under queries across many roots (least recently used idle servers stopped)',
    { timeout: 300_000 },
    async () => {
      const host: LocalHost = await createLocalHost(withLimits({ maxServers: 2 }))
      const lsp: LspService = createLsp()
      cleanups.push(
        () => host.dispose(),
        () => lsp.dispose(),
      )
      const roots = [0, 1, 2, 3].map(() => prepareAttack('ts'))
      for (const r of roots) cleanups.push(r.remove)
      await host.attach(
        lsp,
        roots.map((r) => ({ root: r.root, trust: 'untrusted' as const })),
      )
      let most = 0
      const off = lsp.onStatusChange(() => {
        const live = lsp.status().filter((s) => s.state === 'ready' || s.state === 'indexing' || s.state === 'starting').length
        most = Math.max(most, live)
      })
      cleanups.push(off)
      for (const round of [0, 1]) {
        for (const r of roots) {
          const hover = await lsp.query({
            operation: 'hover',
            root: r.root,
            path: 'src/main.ts',
            position: positionOf(r.root, 'src/main.ts', 'shout'),
          })
          expect(hover.hover?.contents, `round ${round}`).toMatch(/shout: string/)
        }
      }
      expect(most).toBeLessThanOrEqual(2)
      expect(lsp.status().filter((s) => s.state === 'ready').length).toBeLessThanOrEqual(2)
    },
  )
})
