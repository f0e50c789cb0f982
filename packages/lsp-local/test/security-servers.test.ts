import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { TextLines, pathToUri } from '@codeseam/lsp'
import { HoverRequest, type Hover } from 'vscode-languageserver-protocol/node'
import { afterAll, describe, expect, test } from 'vitest'

import { serverEnvironment } from '../src/policy/environment.js'
import { clientCapabilitiesFor } from '../src/features/client-capabilities.js'
import { LanguageServer } from '../src/server/language-server.js'
import { builtinProfiles } from '../src/policy/builtin-profiles.js'
import type { ServerProfile } from '../src/profile/profiles.js'
import { lookUp } from '../src/profile/executables.js'
import { planSpawn, type SpawnPlan } from '../src/policy/trust.js'
import { fakeNpmDir, prepareAttack, waitForFile } from './fixtures/untrusted/prepare.js'

/**
 * The attack workspaces against the REAL servers, started with the plan trust.ts makes (the host's
 * LanguageServer does the spawning, protocol and shutdown). Untrusted: every query answers and no marker
 * appears. Trusted: the documented behaviour, i.e. the attack works where the server allows it.
 */

const deadline = 60_000
const profiles = await builtinProfiles()
const profile = (id: string): ServerProfile => {
  const found = profiles.find((p) => p.id === id)
  if (found === undefined) throw new Error(`no built-in profile ${id}`)
  return found
}
// The real interpreter the Python traps hand over to, found without version shims.
const realPython = lookUp('python3', process.env['PATH'] ?? '', { skipShims: true }) ?? '/usr/bin/python3'
const cleanups: Array<() => void> = []
afterAll(() => {
  for (const cleanup of cleanups) cleanup()
})

function workspace(name: Parameters<typeof prepareAttack>[0]) {
  const attack = prepareAttack(name)
  cleanups.push(attack.remove)
  return attack
}

function positionOf(path: string, needle: string) {
  const text = readFileSync(path, 'utf8')
  const index = text.indexOf(needle)
  if (index === -1) throw new Error(`"${needle}" not found in ${path}`)
  return new TextLines(text).positionAt(index)
}

function hoverText(hover: Hover | null): string {
  if (hover === null) return ''
  const contents = hover.contents
  if (typeof contents === 'string') return contents
  if (Array.isArray(contents)) return contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n')
  return contents.value
}

function start(p: ServerProfile, plan: SpawnPlan, root: string): LanguageServer {
  return new LanguageServer({
    clientCapabilities: clientCapabilitiesFor(p),
    profileId: p.id,
    command: plan.command,
    args: plan.args,
    root,
    env: plan.env,
    initializationOptions: plan.initializationOptions,
    settings: plan.settings,
    maxMessageBytes: 64 * 1024 * 1024,
    stderrLines: 200,
    maxOpenDocuments: 50,
    livenessGraceMs: 30_000,
  })
}

/** Starts one server with a plan, hovers `needle` in `file`, stops the server; returns the hover text. */
async function hoverWith(
  p: ServerProfile,
  plan: SpawnPlan,
  root: string,
  file: string,
  needle: string,
  languageId: string,
): Promise<string> {
  const server = start(p, plan, root)
  try {
    await server.initialize(deadline)
    if (p.readiness === 'progressQuiet') await server.waitForQuiet(Date.now() + deadline)
    const path = nodePath.join(root, file)
    await server.documents.sync(path, languageId)
    const hover = await server.request(
      HoverRequest.type,
      { textDocument: { uri: pathToUri(path) }, position: positionOf(path, needle) },
      { timeoutMs: deadline },
    )
    return hoverText(hover)
  } finally {
    await server.stop()
  }
}

function envWith(p: ServerProfile, extra: Record<string, string>): Record<string, string> {
  return { ...serverEnvironment([], p), ...extra }
}

describe('pyright', () => {
  const pyright = profile('pyright')
  // A relative PATH entry resolves against the server's cwd, the workspace root: `bin/python3` is the trap.
  const env = () => envWith(pyright, { PATH: `bin${nodePath.delimiter}${process.env['PATH'] ?? ''}`, CODESEAM_REAL_PYTHON: realPython })

  test.skipIf(pyright.unavailable !== undefined)(
    'untrusted: no workspace interpreter runs and hover still answers',
    { timeout: 120_000 },
    async () => {
      const attack = workspace('py')
      const plan = planSpawn(pyright, { root: attack.root, trust: 'untrusted', env: env(), pythonInterpreter: realPython })
      const text = await hoverWith(pyright, plan, attack.root, 'pkg/main.py', 'join', 'python')
      expect(text).toMatch(/join/)
      expect(attack.markers()).toEqual([])
    },
  )

  test.skipIf(pyright.unavailable !== undefined)(
    'untrusted with no interpreter outside the workspace: nothing runs, hover answers from bundled stubs',
    { timeout: 120_000 },
    async () => {
      const attack = workspace('py')
      // PATH holds only the workspace's trap folder, which sanitizing removes: no interpreter is left.
      const plan = planSpawn(pyright, {
        root: attack.root,
        trust: 'untrusted',
        env: envWith(pyright, { PATH: 'bin', CODESEAM_REAL_PYTHON: realPython }),
      })
      expect((plan.settings['python'] as Record<string, unknown>)['pythonPath']).toBe('/nonexistent/codeseam-no-python/python3')
      const text = await hoverWith(pyright, plan, attack.root, 'pkg/main.py', 'join', 'python')
      expect(text).toMatch(/join/)
      expect(attack.markers()).toEqual([])
    },
  )

  test.skipIf(pyright.unavailable !== undefined)(
    'trusted: pyright runs the `python3` a relative PATH entry finds in the workspace (documented behaviour)',
    { timeout: 120_000 },
    async () => {
      const attack = workspace('py')
      const plan = planSpawn(pyright, { root: attack.root, trust: 'trusted', env: env() })
      const text = await hoverWith(pyright, plan, attack.root, 'pkg/main.py', 'join', 'python')
      expect(text).toMatch(/join/)
      // The venv named by pyrightconfig.json is only read (site-packages), never executed.
      expect(attack.markers()).toEqual(['python-path.marker'])
    },
  )
})

describe('typescript-language-server', () => {
  const tls = profile('typescript-language-server')

  test.skipIf(tls.unavailable !== undefined)(
    'untrusted: neither the workspace TypeScript nor its tsconfig plugin loads, hover answers',
    { timeout: 120_000 },
    async () => {
      const attack = workspace('ts')
      // Even a profile that forgot tsserver.path gets codeseam's own TypeScript in untrusted mode.
      const { tsserver: _dropped, ...options } = tls.initializationOptions as Record<string, unknown>
      const careless: ServerProfile = { ...tls, initializationOptions: { ...options, tsserver: { useSyntaxServer: 'never' } } }
      const plan = planSpawn(careless, { root: attack.root, trust: 'untrusted', env: envWith(tls, {}) })
      const text = await hoverWith(careless, plan, attack.root, 'src/main.ts', 'shout', 'typescript')
      expect(text).toMatch(/shout: string/)
      expect(attack.markers()).toEqual([])
    },
  )

  test.skipIf(tls.unavailable !== undefined)(
    "trusted without tsserver.path: the server forks the workspace's own node_modules/typescript (documented behaviour)",
    { timeout: 120_000 },
    async () => {
      const attack = workspace('ts')
      const { tsserver: _dropped, ...options } = tls.initializationOptions as Record<string, unknown>
      const careless: ServerProfile = { ...tls, initializationOptions: { ...options, tsserver: { useSyntaxServer: 'never' } } }
      const plan = planSpawn(careless, { root: attack.root, trust: 'trusted', env: envWith(tls, {}) })
      const forked = waitForFile(nodePath.join(attack.root, 'workspace-typescript.marker'), deadline)
      const server = start(careless, plan, attack.root)
      // The fake tsserver exits at once, so the server never gets ready: the marker is what matters here.
      const initializing = server.initialize(deadline).catch((error: unknown) => error)
      try {
        await forked
      } finally {
        await server.stop()
        await initializing
      }
      expect(attack.markers()).toContain('workspace-typescript.marker')
    },
  )
})

describe('native TypeScript 7', () => {
  const native = profile('typescript')

  test.skipIf(native.unavailable !== undefined)(
    'untrusted: the tsconfig plugin never loads and hover answers',
    { timeout: 120_000 },
    async () => {
      const attack = workspace('ts')
      const plan = planSpawn(native, { root: attack.root, trust: 'untrusted', env: envWith(native, {}) })
      const text = await hoverWith(native, plan, attack.root, 'src/main.ts', 'shout', 'typescript')
      expect(text).toMatch(/shout: string/)
      expect(attack.markers()).toEqual([])
    },
  )
})

describe('native TypeScript 7: automatic type acquisition', () => {
  const native = profile('typescript')

  test.skipIf(native.unavailable !== undefined)(
    'untrusted: npm never runs; trusted: it does (documented behaviour)',
    { timeout: 180_000 },
    async () => {
      const untrustedCopy = workspace('js-ata')
      const trustedCopy = workspace('js-ata')
      const untrustedNpm = fakeNpmDir(nodePath.join(untrustedCopy.root, 'npm.marker'))
      const trustedNpm = fakeNpmDir(nodePath.join(trustedCopy.root, 'npm.marker'))
      cleanups.push(untrustedNpm.remove, trustedNpm.remove)
      const pathWith = (dir: string) => `${dir}${nodePath.delimiter}${process.env['PATH'] ?? ''}`
      const untrustedPlan = planSpawn(native, {
        root: untrustedCopy.root,
        trust: 'untrusted',
        env: envWith(native, { ...untrustedNpm.env, PATH: pathWith(untrustedNpm.dir) }),
      })
      const untrustedServer = start(native, untrustedPlan, untrustedCopy.root)
      const trustedPlan = planSpawn(native, {
        root: trustedCopy.root,
        trust: 'trusted',
        env: envWith(native, { ...trustedNpm.env, PATH: pathWith(trustedNpm.dir) }),
      })
      const trustedServer = start(native, trustedPlan, trustedCopy.root)
      try {
        for (const [server, root] of [
          [untrustedServer, untrustedCopy.root],
          [trustedServer, trustedCopy.root],
        ] as const) {
          await server.initialize(deadline)
          const path = nodePath.join(root, 'app.js')
          await server.documents.sync(path, 'javascript')
          const hover = await server.request(
            HoverRequest.type,
            { textDocument: { uri: pathToUri(path) }, position: positionOf(path, 'padded =') },
            { timeoutMs: deadline },
          )
          expect(hoverText(hover)).toMatch(/padded/)
        }
        // The trusted twin ran npm for the same project: by then the untrusted one would have too.
        await waitForFile(nodePath.join(trustedCopy.root, 'npm.marker'), deadline)
        expect(untrustedCopy.markers()).toEqual([])
      } finally {
        await Promise.all([untrustedServer.stop(), trustedServer.stop()])
      }
    },
  )
})

describe('clangd', () => {
  const clangd = profile('clangd')
  // A user who allowed query drivers broadly: the glob matches the workspace's own compiler.
  const withDriver = (root: string): ServerProfile => {
    const { untrusted: _policy, ...rest } = clangd
    return { ...rest, args: [...clangd.args, `--query-driver=${root}/**`] }
  }

  test('untrusted: the compiler compile_commands.json names never runs, hover answers', { timeout: 120_000 }, async ({ skip }) => {
    skip(clangd.unavailable !== undefined, `clangd: ${clangd.unavailable}`)
    const attack = workspace('c')
    const p = withDriver(attack.root)
    const plan = planSpawn(p, { root: attack.root, trust: 'untrusted', env: envWith(p, {}) })
    const text = await hoverWith(p, plan, attack.root, 'main.c', 'twice(21)', 'c')
    expect(text).toMatch(/twice/)
    expect(attack.markers()).toEqual([])
  })

  test(
    'trusted: --query-driver makes clangd execute the workspace compiler (documented behaviour)',
    { timeout: 120_000 },
    async ({ skip }) => {
      skip(clangd.unavailable !== undefined, `clangd: ${clangd.unavailable}`)
      const attack = workspace('c')
      const p = withDriver(attack.root)
      const plan = planSpawn(p, { root: attack.root, trust: 'trusted', env: envWith(p, {}) })
      await hoverWith(p, plan, attack.root, 'main.c', 'twice(21)', 'c')
      expect(attack.markers()).toEqual(['compiler.marker'])
    },
  )
})
