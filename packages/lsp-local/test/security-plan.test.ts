import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { LspError } from '@codeseam/lsp'
import { afterAll, describe, expect, test } from 'vitest'

import { builtinProfiles } from '../src/policy/builtin-profiles.js'
import type { ServerProfile } from '../src/profile/profiles.js'
import { forgetUserPython } from '../src/languages/pyright/interpreter.js'
import { isShimDirectory, ownTsserverPath, sanitizePath } from '../src/profile/executables.js'
import { recordFor } from '../src/languages/index.js'
import { planSpawn, type TrustContext } from '../src/policy/trust.js'
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
const custom = (overrides: Partial<ServerProfile>): ServerProfile => ({
  id: 'custom',
  command: process.execPath,
  args: [],
  extensions: { '.x': 'x' },
  // A server codeseam has no record of must state its untrusted rule; these tests check the generic part.
  untrusted: {},
  ...overrides,
})
const context = (overrides: Partial<TrustContext> = {}): TrustContext => ({
  root,
  trust: 'untrusted',
  env: { PATH: process.env['PATH'] ?? '' },
  ...overrides,
})

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
    const profile = custom({
      command: 'relative/server',
      args: ['--query-driver=/x/**'],
      settings: { a: 1 },
      initializationOptions: { b: 2 },
    })
    const plan = planSpawn(profile, context({ trust: 'trusted', env: { PATH: 'bin:/usr/bin', NODE_OPTIONS: '--inspect' } }))
    expect(plan).toEqual({
      command: 'relative/server',
      args: ['--query-driver=/x/**'],
      env: { PATH: 'bin:/usr/bin', NODE_OPTIONS: '--inspect' },
      initializationOptions: { b: 2 },
      settings: { a: 1 },
      hardening: [],
    })
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
    expect(untrustedError(() => planSpawn(custom({ command: inside }), context())).message).toMatch(
      /inside the workspace.*point "command" at an installed server outside the workspace/,
    )
    untrustedError(() => planSpawn(custom({ command: './bin/evil-lsp' }), context()))
    const link = nodePath.join(outside, 'innocent-lsp')
    symlinkSync(inside, link)
    untrustedError(() => planSpawn(custom({ command: link }), context()))
  })

  test("the fixture user profile: node running the workspace's own server script is refused", () => {
    const attack = prepareAttack('server')
    try {
      const profile = custom({ id: 'evil', command: 'node', args: [nodePath.join(attack.root, 'evil-server.mjs'), '--stdio'] })
      expect(untrustedError(() => planSpawn(profile, context({ root: attack.root }))).message).toMatch(
        /runs the script .*evil-server\.mjs, inside the workspace/,
      )
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
    const plan = planSpawn(
      custom({}),
      context({
        env: { PATH: '/usr/bin', NODE_OPTIONS: '--require=/x.js', PYTHONPATH: root, CLANGD_FLAGS: '--query-driver=**', HOME: '/home/u' },
      }),
    )
    expect(plan.env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', PYTHONSAFEPATH: '1' })
  })

  test('a server codeseam has no record of, stating no untrusted rule, is refused with what to add', () => {
    const { untrusted: _none, ...stated } = custom({})
    const error = untrustedError(() => planSpawn(stated, context()))
    expect(error.message).toMatch(/not a server codeseam knows.*"untrusted": \{\}/)
    expect(planSpawn(stated, context({ trust: 'trusted' })).command).toBe(process.execPath)
  })

  test("a user profile for a known server takes that server's record by its executable, whatever its id", () => {
    const gopls = executable(nodePath.join(outside, 'go', 'bin', 'gopls'))
    const plan = planSpawn(
      { id: 'my-go', command: gopls, args: ['serve'], extensions: { '.go': 'go' } },
      context({ env: { PATH: '/usr/bin', GOFLAGS: '-mod=mod' } }),
    )
    expect(recordFor({ id: 'my-go', command: gopls, args: [] })?.id).toBe('gopls')
    expect(plan.env['GOFLAGS']).toBe('-mod=readonly')
    expect(plan.env['GOTOOLCHAIN']).toBe('local')
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
    expect(recordFor(native)?.id).toBe('typescript')
  })

  test('--pprofDir is dropped in both spellings', () => {
    expect(planSpawn({ ...native, args: ['--lsp', '--stdio', '--pprofDir', '/tmp/p'] }, context()).args).toEqual(['--lsp', '--stdio'])
    expect(planSpawn({ ...native, args: ['--lsp', '-pprofDir=/tmp/p', '--stdio'] }, context()).args).toEqual(['--lsp', '--stdio'])
  })
})

describe('typescript-language-server', () => {
  const tls = builtin('typescript-language-server')
  const options = (plan: { initializationOptions?: unknown }) =>
    plan.initializationOptions as Record<string, Record<string, unknown> | unknown>

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
    const plugins = [
      { name: 'ok', location: nodePath.join(outside, 'plugins') },
      { name: 'evil', location: nodePath.join(root, 'node_modules') },
      { name: 'rel', location: 'node_modules' },
    ]
    const plan = planSpawn(
      { ...tls, initializationOptions: { ...(tls.initializationOptions as object), plugins, npmLocation: nodePath.join(root, 'npm') } },
      context(),
    )
    expect(options(plan)['disableAutomaticTypingAcquisition']).toBe(true)
    expect(options(plan)['npmLocation']).toBeUndefined()
    expect(options(plan)['plugins']).toEqual([plugins[0]])
    expect(options(plan)['preferences']).toEqual((tls.initializationOptions as Record<string, unknown>)['preferences'])
  })
})

describe('pyright', () => {
  const pyright = builtin('pyright')
  const pythonPathOf = (plan: { settings: Readonly<Record<string, unknown>> }) =>
    (plan.settings['python'] as Record<string, unknown>)['pythonPath']
  const analysisOf = (plan: { settings: Readonly<Record<string, unknown>> }) =>
    (plan.settings['python'] as Record<string, Record<string, unknown>>)['analysis'] ?? {}

  test('the interpreter is the one the user gets outside the workspace: a version shim is asked from a folder outside it, never where a workspace file could select', () => {
    forgetUserPython()
    const home = nodePath.join(outside, 'home')
    mkdirSync(home, { recursive: true })
    const global = executable(nodePath.join(outside, 'versions', '3.11', 'bin', 'python3'))
    const log = nodePath.join(outside, 'shim.log')
    // A pyenv-like shim: picks the version from a .python-version in the folder it runs in, else the global one.
    const shims = nodePath.join(outside, '.pyenv', 'shims')
    executable(
      nodePath.join(shims, 'python3'),
      `#!/bin/sh\necho "$PWD $PYENV_DIR" >> '${log}'\nif [ -f "\${PYENV_DIR:-.}/.python-version" ]; then echo '${nodePath.join(root, 'venv', 'bin', 'python3')}'; else echo '${global}'; fi\necho 3.11\n`,
    )
    writeFileSync(nodePath.join(root, '.python-version'), '3.8.18\n')
    const real = executable(nodePath.join(outside, 'usr', 'bin', 'python3'))
    expect(isShimDirectory(shims)).toBe(true)
    const plan = planSpawn(
      pyright,
      context({
        env: { PATH: ['bin', shims, nodePath.dirname(real)].join(nodePath.delimiter), HOME: home },
        pythonSelection: { PYENV_DIR: root },
      }),
    )
    expect(pythonPathOf(plan)).toBe(global)
    // Asked once, from the user's home, with a PYENV_DIR that pointed into the workspace replaced by that folder.
    expect(readFileSync(log, 'utf8')).toBe(`${home} ${home}\n`)
    expect(plan.env).toMatchObject({ PYENV_VERSION: 'system', PYTHONSAFEPATH: '1' })
    expect(plan.env['PYENV_DIR']).toBeUndefined()
    expect(plan.hardening).toContain(
      `Python interpreter chosen outside the workspace (${nodePath.join(shims, 'python3')}, asked in ${home})`,
    )
    // The rest of the python section survives.
    expect((plan.settings['python'] as Record<string, unknown>)['analysis']).toEqual({
      diagnosticMode: 'openFilesOnly',
      autoSearchPaths: true,
    })
    // Cached per host process: a second plan asks nobody.
    expect(
      pythonPathOf(
        planSpawn(
          pyright,
          context({
            env: { PATH: ['bin', shims, nodePath.dirname(real)].join(nodePath.delimiter), HOME: home },
            pythonSelection: { PYENV_DIR: root },
          }),
        ),
      ),
    ).toBe(global)
    expect(readFileSync(log, 'utf8')).toBe(`${home} ${home}\n`)
    rmSync(nodePath.join(root, '.python-version'))
  })

  test('an activated virtual environment outside the workspace comes first; one inside it is never run', () => {
    forgetUserPython()
    const venv = nodePath.join(outside, 'user-venv')
    const python = executable(nodePath.join(venv, 'bin', 'python3'), `#!/bin/sh\necho '${nodePath.join(venv, 'bin', 'python3')}'\n`)
    const other = executable(
      nodePath.join(outside, 'other', 'python3'),
      `#!/bin/sh\necho '${nodePath.join(outside, 'other', 'python3')}'\n`,
    )
    const env = { PATH: nodePath.dirname(other), HOME: outside }
    expect(pythonPathOf(planSpawn(pyright, context({ env, pythonSelection: { VIRTUAL_ENV: venv } })))).toBe(python)
    const marker = nodePath.join(outside, 'inside-venv.marker')
    executable(nodePath.join(root, 'env', 'bin', 'python3'), `#!/bin/sh\necho "$0" >> '${marker}'\n`)
    mkdirSync(nodePath.join(root, 'env', 'lib', 'python3.11', 'site-packages'), { recursive: true })
    const plan = planSpawn(pyright, context({ env, pythonSelection: { VIRTUAL_ENV: nodePath.join(root, 'env') } }))
    expect(pythonPathOf(plan)).toBe(other)
    expect(existsSync(marker)).toBe(false)
    expect(analysisOf(plan)['extraPaths']).toEqual([nodePath.join(root, 'env', 'lib', 'python3.11', 'site-packages')])
    rmSync(nodePath.join(root, 'env'), { recursive: true })
  })

  test('a project .venv is read by path (site-packages as extraPaths, contained in the workspace), never run', () => {
    forgetUserPython()
    const other = executable(
      nodePath.join(outside, 'other', 'python3'),
      `#!/bin/sh\necho '${nodePath.join(outside, 'other', 'python3')}'\necho 3.12\n`,
    )
    const marker = nodePath.join(outside, 'dotvenv.marker')
    executable(nodePath.join(root, '.venv', 'bin', 'python3'), `#!/bin/sh\necho "$0" >> '${marker}'\n`)
    for (const version of ['3.11', '3.12'])
      mkdirSync(nodePath.join(root, '.venv', 'lib', `python${version}`, 'site-packages'), { recursive: true })
    // `venv/` whose site-packages is a symlink leaving the workspace: not read.
    const elsewhere = nodePath.join(outside, 'elsewhere-site-packages')
    mkdirSync(elsewhere, { recursive: true })
    mkdirSync(nodePath.join(root, 'venv', 'lib', 'python3.12'), { recursive: true })
    symlinkSync(elsewhere, nodePath.join(root, 'venv', 'lib', 'python3.12', 'site-packages'))
    const withExtra = { ...pyright, settings: { python: { analysis: { extraPaths: ['/opt/stubs'] } } } }
    const plan = planSpawn(withExtra, context({ env: { PATH: nodePath.dirname(other), HOME: outside }, pythonSelection: {} }))
    expect(pythonPathOf(plan)).toBe(other)
    // The interpreter's own version first; the profile's own extra paths kept.
    expect(analysisOf(plan)['extraPaths']).toEqual([
      '/opt/stubs',
      nodePath.join(root, '.venv', 'lib', 'python3.12', 'site-packages'),
      nodePath.join(root, '.venv', 'lib', 'python3.11', 'site-packages'),
    ])
    expect(plan.hardening).toContain(
      `virtual environment site-packages leaving the workspace ignored: ${nodePath.join(root, 'venv', 'lib', 'python3.12', 'site-packages')}`,
    )
    expect(existsSync(marker)).toBe(false)
    rmSync(nodePath.join(root, '.venv'), { recursive: true })
    rmSync(nodePath.join(root, 'venv', 'lib'), { recursive: true })
  })

  test('an interpreter inside the workspace is refused', () => {
    const trap = executable(nodePath.join(root, 'venv', 'bin', 'python3'))
    expect(untrustedError(() => planSpawn(pyright, context({ pythonInterpreter: trap }))).message).toMatch(
      /Python interpreter .* inside the workspace/,
    )
  })

  test('no interpreter outside the workspace: pyright gets one that cannot exist, so its PATH fallback never runs', () => {
    const plan = planSpawn(pyright, context({ env: { PATH: 'bin' }, pythonSelection: {} }))
    expect(pythonPathOf(plan)).toBe('/nonexistent/codeseam-no-python/python3')
  })
})

describe('clangd', () => {
  const clangd = builtin('clangd')

  test('--query-driver globs are dropped and project .clangd config is ignored', () => {
    const { untrusted: _policy, ...withoutPolicy } = clangd
    const plan = planSpawn(
      { ...withoutPolicy, args: ['--query-driver=/usr/bin/**', '--log=error', '--query-driver', '**/g++*', '--enable-config=true'] },
      context(),
    )
    expect(plan.args).toEqual(['--log=error', '--enable-config=false'])
    expect(plan.hardening).toContain('--query-driver dropped')
  })

  test('the built-in untrusted policy is kept and not doubled', () => {
    expect(planSpawn(clangd, context()).args).toEqual(['--background-index=false', '--log=error', '--enable-config=false'])
  })
})
