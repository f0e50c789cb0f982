import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'
import { afterAll, describe, expect, test } from 'vitest'

import { builtinProfiles, type ServerProfile } from '../src/profiles.js'
import { isShimDirectory, lookUp, ownTsserverPath, planSpawn, sanitizePath, serverKind, type TrustContext } from '../src/trust.js'
import { prepareAttack } from './fixtures/untrusted/prepare.js'

const scratch = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-trust-')))
const root = nodePath.join(scratch, 'workspace')
const outside = nodePath.join(scratch, 'outside')
mkdirSync(nodePath.join(root, 'bin'), { recursive: true })
mkdirSync(outside, { recursive: true })
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function executable(path: string, text = '#!/bin/sh\nexit 0\n'): string {
  mkdirSync(nodePath.dirname(path), { recursive: true })
  writeFileSync(path, text)
  chmodSync(path, 0o755)
  return path
}

const profiles = await builtinProfiles()
const builtin = (id: string): ServerProfile => {
  const found = profiles.find((p) => p.id === id)
  if (found === undefined) throw new Error(`no built-in ${id}`)
  return found
}
const custom = (overrides: Partial<ServerProfile>): ServerProfile => ({ id: 'custom', command: process.execPath, args: [], extensions: { '.x': 'x' }, ...overrides })
const context = (overrides: Partial<TrustContext> = {}): TrustContext => ({ root, trust: 'untrusted', env: { PATH: process.env['PATH'] ?? '' }, ...overrides })

function untrustedError(run: () => unknown): LspError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(LspError)
    expect((error as LspError).code).toBe('UNTRUSTED')
    return error as LspError
  }
  throw new Error('expected LspError UNTRUSTED, nothing was thrown')
}

describe('trusted roots run the profile as configured', () => {
  test('command, args, settings and environment are untouched', () => {
    const profile = custom({ command: 'relative/server', args: ['--query-driver=/x/**'], settings: { a: 1 }, initializationOptions: { b: 2 } })
    const plan = planSpawn(profile, context({ trust: 'trusted', env: { PATH: 'bin:/usr/bin', NODE_OPTIONS: '--inspect' } }))
    expect(plan).toEqual({ command: 'relative/server', args: ['--query-driver=/x/**'], env: { PATH: 'bin:/usr/bin', NODE_OPTIONS: '--inspect' }, initializationOptions: { b: 2 }, settings: { a: 1 }, hardening: [] })
  })
})

describe('every profile, untrusted', () => {
  test('`untrusted: "refuse"` refuses with an actionable UNTRUSTED error', () => {
    const error = untrustedError(() => planSpawn(custom({ untrusted: 'refuse' }), context()))
    expect(error.message).toMatch(/mark the root trusted/)
    expect(error.data).toMatchObject({ profile: 'custom', root })
  })

  test('a user profile whose command is inside the workspace is refused (absolute, relative, or through a symlink)', () => {
    const inside = executable(nodePath.join(root, 'bin', 'evil-lsp'))
    expect(untrustedError(() => planSpawn(custom({ command: inside }), context())).message).toMatch(/inside the workspace.*point "command" at an installed server outside the workspace/)
    untrustedError(() => planSpawn(custom({ command: './bin/evil-lsp' }), context()))
    const link = nodePath.join(outside, 'innocent-lsp')
    symlinkSync(inside, link)
    untrustedError(() => planSpawn(custom({ command: link }), context()))
  })

  test('the fixture user profile: node running the workspace\'s own server script is refused', () => {
    const attack = prepareAttack('server')
    try {
      const profile = custom({ id: 'evil', command: 'node', args: [nodePath.join(attack.root, 'evil-server.mjs'), '--stdio'] })
      expect(untrustedError(() => planSpawn(profile, context({ root: attack.root }))).message).toMatch(/runs the script .*evil-server\.mjs, inside the workspace/)
      // The same script by a relative path (the cwd is the root) is just as much the workspace's.
      untrustedError(() => planSpawn({ ...profile, args: ['evil-server.mjs'] }, context({ root: attack.root })))
      // Trusted: the documented behaviour, the user's command runs.
      expect(planSpawn(profile, context({ root: attack.root, trust: 'trusted' })).command).toBe('node')
    } finally {
      attack.remove()
    }
  })

  test('a bare command is resolved on the sanitized PATH, never through a workspace folder', () => {
    executable(nodePath.join(root, 'bin', 'lonely-lsp'))
    const plan = planSpawn(custom({ command: 'lonely-lsp' }), context({ env: { PATH: `bin${nodePath.delimiter}/usr/bin` } }))
    expect(plan.command).toBe('lonely-lsp') // not found anywhere safe: the spawn fails, nothing runs
    expect(plan.env['PATH']).toBe('/usr/bin')
    const real = executable(nodePath.join(outside, 'tools', 'real-lsp'))
    expect(planSpawn(custom({ command: 'real-lsp' }), context({ env: { PATH: nodePath.dirname(real) } })).command).toBe(real)
  })

  test('PATH loses empty, relative and in-workspace entries; preload variables are not passed', () => {
    const path = ['', '.', 'bin', nodePath.join(root, 'node_modules', '.bin'), '/usr/bin', outside].join(nodePath.delimiter)
    expect(sanitizePath(path, root)).toBe(['/usr/bin', outside].join(nodePath.delimiter))
    const plan = planSpawn(custom({}), context({ env: { PATH: '/usr/bin', NODE_OPTIONS: '--require=/x.js', PYTHONPATH: root, CLANGD_FLAGS: '--query-driver=**', HOME: '/home/u' } }))
    expect(plan.env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', PYTHONSAFEPATH: '1' })
  })

  test('a node script outside the workspace is fine', () => {
    const script = nodePath.join(outside, 'server.js')
    writeFileSync(script, '')
    const plan = planSpawn(custom({ command: process.execPath, args: [script, '--stdio'] }), context())
    expect(plan.args).toEqual([script, '--stdio'])
  })
})

describe('native TypeScript 7', () => {
  const native = builtin('typescript')

  test('automatic type acquisition (npm install) is off under every section it reads', () => {
    const plan = planSpawn({ ...native, settings: { typescript: { preferences: { quoteStyle: 'single' } } } }, context())
    expect(plan.settings).toMatchObject({
      'js/ts': { tsserver: { automaticTypeAcquisition: { enabled: false } } },
      typescript: { disableAutomaticTypeAcquisition: true, preferences: { quoteStyle: 'single' } },
      javascript: { disableAutomaticTypeAcquisition: true },
    })
    expect(serverKind(native)).toBe('native-typescript')
  })

  test('--pprofDir is dropped in both spellings', () => {
    expect(planSpawn({ ...native, args: ['--lsp', '--stdio', '--pprofDir', '/tmp/p'] }, context()).args).toEqual(['--lsp', '--stdio'])
    expect(planSpawn({ ...native, args: ['--lsp', '-pprofDir=/tmp/p', '--stdio'] }, context()).args).toEqual(['--lsp', '--stdio'])
  })
})

describe('typescript-language-server', () => {
  const tls = builtin('typescript-language-server')
  const options = (plan: { initializationOptions?: unknown }) => plan.initializationOptions as Record<string, Record<string, unknown> | unknown>

  test('the tsserver is always ours: missing, in-workspace and invalid paths are replaced', () => {
    const own = ownTsserverPath()
    expect(own).toMatch(/typescript[\\/]lib[\\/]tsserver\.js$/)
    const trap = executable(nodePath.join(root, 'node_modules', 'typescript', 'lib', 'tsserver.js'))
    for (const tsserver of [{}, { path: trap }, { path: '/nonexistent/tsserver.js' }, { path: 'typescript' }]) {
      const plan = planSpawn({ ...tls, initializationOptions: { tsserver: { ...tsserver, fallbackPath: trap } } }, context())
      expect(options(plan)['tsserver']).toEqual({ path: own })
    }
  })

  test('typing acquisition is off, npmLocation and workspace plugin locations are dropped', () => {
    const plugins = [{ name: 'ok', location: nodePath.join(outside, 'plugins') }, { name: 'evil', location: nodePath.join(root, 'node_modules') }, { name: 'rel', location: 'node_modules' }]
    const plan = planSpawn({ ...tls, initializationOptions: { ...(tls.initializationOptions as object), plugins, npmLocation: nodePath.join(root, 'npm') } }, context())
    expect(options(plan)['disableAutomaticTypingAcquisition']).toBe(true)
    expect(options(plan)['npmLocation']).toBeUndefined()
    expect(options(plan)['plugins']).toEqual([plugins[0]])
    expect(options(plan)['preferences']).toEqual((tls.initializationOptions as Record<string, unknown>)['preferences'])
  })
})

describe('pyright', () => {
  const pyright = builtin('pyright')
  const pythonPathOf = (plan: { settings: Readonly<Record<string, unknown>> }) => (plan.settings['python'] as Record<string, unknown>)['pythonPath']

  test('the interpreter is one we choose, absolute, with version shims skipped and pinned', () => {
    const shims = nodePath.join(outside, '.pyenv', 'shims')
    executable(nodePath.join(shims, 'python3'))
    const real = executable(nodePath.join(outside, 'usr', 'bin', 'python3'))
    expect(isShimDirectory(shims)).toBe(true)
    expect(lookUp('python3', `${shims}${nodePath.delimiter}${nodePath.dirname(real)}`, { skipShims: true })).toBe(real)
    const plan = planSpawn(pyright, context({ env: { PATH: ['bin', shims, nodePath.dirname(real)].join(nodePath.delimiter) } }))
    expect(pythonPathOf(plan)).toBe(real)
    expect(plan.env).toMatchObject({ PYENV_VERSION: 'system', PYTHONSAFEPATH: '1' })
    // The rest of the python section survives.
    expect((plan.settings['python'] as Record<string, unknown>)['analysis']).toEqual({ diagnosticMode: 'openFilesOnly', autoSearchPaths: true })
  })

  test('an interpreter inside the workspace is refused', () => {
    const trap = executable(nodePath.join(root, 'venv', 'bin', 'python3'))
    expect(untrustedError(() => planSpawn(pyright, context({ pythonInterpreter: trap }))).message).toMatch(/Python interpreter .* inside the workspace/)
  })

  test('no interpreter outside the workspace: pyright gets one that cannot exist, so its PATH fallback never runs', () => {
    const plan = planSpawn(pyright, context({ env: { PATH: 'bin' } }))
    expect(pythonPathOf(plan)).toBe('/nonexistent/codeseam-no-python/python3')
  })
})

describe('clangd', () => {
  const clangd = builtin('clangd')

  test('--query-driver globs are dropped and project .clangd config is ignored', () => {
    const { untrusted: _policy, ...withoutPolicy } = clangd
    const plan = planSpawn({ ...withoutPolicy, args: ['--query-driver=/usr/bin/**', '--log=error', '--query-driver', '**/g++*', '--enable-config=true'] }, context())
    expect(plan.args).toEqual(['--log=error', '--enable-config=false'])
    expect(plan.hardening).toContain('--query-driver dropped')
  })

  test('the built-in untrusted policy is kept and not doubled', () => {
    expect(planSpawn(clangd, context()).args).toEqual(['--background-index=false', '--log=error', '--enable-config=false'])
  })
})
