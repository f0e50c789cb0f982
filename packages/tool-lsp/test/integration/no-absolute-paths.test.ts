import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type AnyTool, type ToolOutcome } from '../../src/index.js'
import { codeCompletions } from '../../src/completions.js'
import { codeDiagnostics } from '../../src/diagnostics.js'
import { codeHierarchy } from '../../src/hierarchy.js'
import { codeHover } from '../../src/hover.js'
import { codeInlayHints } from '../../src/inlay-hints.js'
import { codeNavigate, navigationKinds } from '../../src/navigation.js'
import { codeStatus } from '../../src/status.js'
import { codeSymbols } from '../../src/symbols.js'
import { pythonFiles, typeScriptFiles } from '../support/projects.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

/**
 * Answer hygiene: every read tool, run on a root folder with a unique name, answers with workspace-relative
 * paths only. The absolute root (as given and as its real path, plain or as a file: URI) must appear in no
 * rendered text, summary, error or structured result — including the places servers like to quote absolute
 * paths: a call-hierarchy node for a module (native TypeScript 7 names it by path), an inferred
 * `typeof import("/abs/…")` type in an inlay hint and a diagnostic message, pyright's import-cycle warning
 * (which lists the files), hovers on module specifiers and namespace imports, and error messages.
 * Fails without the seam's rewriting (packages/lsp/src/relative-text.ts).
 */

const files: Record<string, string> = {
  ...typeScriptFiles(2),
  ...pythonFiles(),
  // A test file: top-level calls belong to the module, so the call hierarchy shows a module node for it.
  'src/main.test.ts': [
    "import { track } from './telemetry'",
    "import { report } from './main'",
    '',
    "track('top-level', 1)",
    'report()',
    '',
  ].join('\n'),
  // The native server prints module types by absolute path: typeof import("/abs/…/shapes").
  'src/lazy.ts': [
    "import { track } from './telemetry'",
    '',
    "export const lazy = import('./shapes')",
    "export const wrong: number = import('./shapes')",
    "track('lazy', 1)",
    '',
  ].join('\n'),
  'src/ns.ts': ["import * as telemetry from './telemetry'", "export * as shapes from './shapes'", '', "telemetry.track('ns', 1)", ''].join(
    '\n',
  ),
  // pyright lists the files of an import cycle by absolute path.
  'pyproject.toml': '[tool.pyright]\ninclude = ["app"]\nreportImportCycles = "warning"\n',
  'app/cycle_a.py': ['from app import cycle_b', '', 'VALUE = 1', '', 'def twice() -> int:', '    return cycle_b.VALUE * 2', ''].join('\n'),
  'app/cycle_b.py': ['from app import cycle_a', '', 'VALUE = 2', '', 'def thrice() -> int:', '    return cycle_a.VALUE * 3', ''].join('\n'),
  'app/uses.py': [
    'from app import animals',
    'import app.missing',
    '',
    'def call() -> str:',
    '    return animals.greet(animals.Dog(), 1)',
    '',
  ].join('\n'),
}

function lineOf(file: string, needle: string): number {
  const index = (files[file] ?? '').split('\n').findIndex((line) => line.includes(needle))
  if (index < 0) throw new Error(`${file} has no line containing ${JSON.stringify(needle)}`)
  return index + 1
}

describe('no absolute root path in any read tool answer', { timeout: 180_000 }, () => {
  let root: string
  let forms: string[]
  let real: RealHost
  const seen: Array<{ tool: string; args: unknown; outcome: ToolOutcome }> = []

  beforeAll(async () => {
    // A unique folder name: nothing in an answer can contain it by accident.
    const created = await mkdtemp(nodePath.join(tmpdir(), 'codeseam-uniq-'))
    // The host opens the real path (the temp folder may sit behind a symbolic link, as on macOS).
    root = await realpath(created)
    for (const [relative, text] of Object.entries(files)) {
      const path = nodePath.join(root, relative)
      await mkdir(nodePath.dirname(path), { recursive: true })
      await writeFile(path, text)
    }
    forms = [...new Set([created, root, pathToFileURL(created).href, pathToFileURL(root).href])]
    real = await startRealHost(root)
  }, 120_000)

  afterAll(async () => {
    await real?.dispose()
    if (root !== undefined) await rm(root, { recursive: true, force: true })
  })

  function expectNoRoot(what: string, value: unknown): void {
    const json = JSON.stringify(value)
    for (const form of forms) {
      const at = json.indexOf(form)
      expect(at, `${what} leaks ${form}: …${json.slice(Math.max(0, at - 120), at + 200)}…`).toBe(-1)
    }
  }

  /** Calls a tool, records the outcome, and fails when any form of the root leaks into it. */
  async function call(tool: AnyTool, args: unknown): Promise<ToolOutcome> {
    const outcome = await real.call(tool, args)
    seen.push({ tool: tool.name, args, outcome })
    expectNoRoot(`${tool.name} ${JSON.stringify(args)}`, outcome)
    return outcome
  }

  it('code_symbols: outlines and workspace search (with no duplicate matches)', async () => {
    for (const path of ['src/main.test.ts', 'src/lazy.ts', 'src/shapes.ts', 'app/animals.py', 'app/cycle_a.py']) {
      structured(await call(codeSymbols, { path }))
    }
    for (const query of ['track', 'greet', 'Circle', 'lazy', 'VALUE']) {
      const result = structured(await call(codeSymbols, { query }))
      const keys = result.matches.map((m: any) => `${m.path}:${m.line}:${m.column}:${m.kind}:${m.name}`)
      expect(new Set(keys).size, `duplicate matches for ${query}: ${keys.join(', ')}`).toBe(keys.length)
    }
  })

  it('code_navigate: every kind each server supports', async () => {
    const targets = [
      { path: 'src/shapes.ts', symbol: 'Shape' },
      { path: 'src/telemetry.ts', symbol: 'track' },
      { path: 'src/lazy.ts', line: lineOf('src/lazy.ts', "import('./shapes')"), matchText: './shapes' },
      { path: 'src/main.test.ts', line: lineOf('src/main.test.ts', "from './telemetry'"), matchText: './telemetry' },
      { path: 'app/animals.py', symbol: 'Animal' },
      { path: 'app/uses.py', line: lineOf('app/uses.py', 'from app import animals'), matchText: 'animals' },
    ]
    let answered = 0
    for (const target of targets) {
      for (const kind of navigationKinds) {
        const outcome = await call(codeNavigate, { target, kind, includeBody: kind === 'definition' })
        if (outcome.ok) answered++
        else expect(outcome.error.code).toBe('UNSUPPORTED_OPERATION')
      }
    }
    expect(answered).toBeGreaterThan(targets.length * 3)
  })

  it('code_hierarchy: callers with a module node, callees, in both languages', async () => {
    const callers = structured(
      await call(codeHierarchy, { target: { path: 'src/telemetry.ts', symbol: 'track' }, kind: 'callers', depth: 2 }),
    )
    // The top-level calls of the test file come from its module node, named by its workspace-relative path.
    const moduleNode = callers.direct.find((d: any) => d.path === 'src/main.test.ts')
    expect(moduleNode, JSON.stringify(callers.direct)).toBeDefined()
    expect(moduleNode.kind).toBe('module')
    expect(moduleNode.name).toMatch(/^src\/main\.test(\.ts)?$/)
    structured(await call(codeHierarchy, { target: { path: 'src/main.ts', symbol: 'report' }, kind: 'callers', depth: 3 }))
    structured(await call(codeHierarchy, { target: { path: 'src/main.ts', symbol: 'run' }, kind: 'callees', depth: 3 }))
    structured(
      await call(codeHierarchy, {
        target: { path: 'src/main.test.ts', line: lineOf('src/main.test.ts', 'report()'), matchText: 'report' },
        kind: 'callees',
      }),
    )
    structured(await call(codeHierarchy, { target: { path: 'app/animals.py', symbol: 'greet' }, kind: 'callers', depth: 2 }))
    structured(await call(codeHierarchy, { target: { path: 'app/uses.py', symbol: 'call' }, kind: 'callees', depth: 2 }))
    for (const kind of ['supertypes', 'subtypes'] as const) {
      for (const target of [
        { path: 'src/shapes.ts', symbol: 'Circle' },
        { path: 'app/animals.py', symbol: 'Dog' },
      ]) {
        // Derived where the server has no type hierarchy (RFC 0010): an answer, never a refusal.
        structured(await call(codeHierarchy, { target, kind }))
      }
    }
  })

  it('code_hover: module specifiers, inferred import() types, symbols', async () => {
    const specifier = structured(
      await call(codeHover, {
        target: { path: 'src/main.test.ts', line: lineOf('src/main.test.ts', "from './telemetry'"), matchText: 'telemetry' },
      }),
    )
    // The server names the module; the seam turned its absolute path into a workspace-relative one.
    expect(specifier.signature).toMatch(/module "(\.\/|src\/)telemetry"/)
    const lazy = structured(await call(codeHover, { target: { path: 'src/lazy.ts', symbol: 'lazy' } }))
    expect(lazy.signature).toMatch(/import\("(\.\/|src\/)shapes"\)/)
    structured(
      await call(codeHover, { target: { path: 'src/lazy.ts', line: lineOf('src/lazy.ts', "import('./shapes')"), matchText: './shapes' } }),
    )
    structured(await call(codeHover, { target: { path: 'src/lazy.ts', line: lineOf('src/lazy.ts', "track('lazy'"), matchText: "'lazy'" } }))
    structured(await call(codeHover, { target: { path: 'src/telemetry.ts', symbol: 'track' } }))
    structured(await call(codeHover, { target: { path: 'src/ns.ts', line: 1, matchText: 'telemetry' } }))
    structured(await call(codeHover, { target: { path: 'src/ns.ts', line: 1, matchText: './telemetry' } }))
    structured(await call(codeHover, { target: { path: 'src/ns.ts', line: 2, matchText: 'shapes' } }))
    structured(await call(codeHover, { target: { path: 'src/ns.ts', line: 4, matchText: 'telemetry' } }))
    structured(
      await call(codeHover, {
        target: { path: 'app/uses.py', line: lineOf('app/uses.py', 'from app import animals'), matchText: 'animals' },
      }),
    )
    structured(
      await call(codeHover, { target: { path: 'app/uses.py', line: lineOf('app/uses.py', 'import app.missing'), matchText: 'missing' } }),
    )
    structured(await call(codeHover, { target: { path: 'app/cycle_a.py', line: 1, matchText: 'cycle_b' } }))
    structured(await call(codeHover, { target: { path: 'app/animals.py', symbol: 'greet' } }))
  })

  it('code_diagnostics: messages that quote paths, per file and over the workspace', async () => {
    const lazy = structured(await call(codeDiagnostics, { path: 'src/lazy.ts' }))
    const wrong = lazy.files[0].diagnostics.find((d: any) => d.line === lineOf('src/lazy.ts', 'export const wrong'))
    // The native server prints the module type by absolute path; the answer shows it workspace-relative.
    expect(wrong?.message).toBe("Type 'Promise<typeof import(\"src/shapes\")>' is not assignable to type 'number'.")
    // pyright lists the files of an import cycle by absolute path (asked again while pyright is still checking).
    let cycle: any
    for (let attempt = 0; attempt < 10 && cycle === undefined; attempt++) {
      const result = structured(await call(codeDiagnostics, { path: 'app/cycle_a.py', severity: 'hint' }))
      cycle = result.files[0]?.diagnostics.find((d: any) => /Cycle detected/.test(d.message))
    }
    expect(cycle?.message).toMatch(/^Cycle detected in import chain\s+app\/cycle_a\.py\s+app\/cycle_b\.py$/)
    structured(await call(codeDiagnostics, { path: 'app/uses.py', severity: 'hint' }))
    structured(await call(codeDiagnostics, { path: 'src/broken.ts', severity: 'hint' }))
    structured(await call(codeDiagnostics, { severity: 'hint' }))
  })

  it('code_inlay_hints: an inferred import() type', async () => {
    const result = structured(await call(codeInlayHints, { path: 'src/lazy.ts' }))
    expect(result.hints.map((h: any) => h.label)).toContain(": Promise<typeof import('src/shapes')>")
    structured(await call(codeInlayHints, { path: 'src/main.ts' }))
    const python = await call(codeInlayHints, { path: 'app/main.py' })
    if (!python.ok) expect(python.error.code).toBe('UNSUPPORTED_OPERATION')
  })

  it('code_completions: members, module members, import paths', async () => {
    structured(
      await call(codeCompletions, { target: { path: 'src/main.ts', line: lineOf('src/main.ts', 'circle.area()'), matchText: 'circle.' } }),
    )
    structured(
      await call(codeCompletions, { target: { path: 'src/lazy.ts', line: lineOf('src/lazy.ts', "track('lazy'"), matchText: 'track' } }),
    )
    structured(
      await call(codeCompletions, { target: { path: 'app/uses.py', line: lineOf('app/uses.py', 'animals.greet'), matchText: 'greet' } }),
    )
  })

  it('errors a model acts on', async () => {
    for (const [tool, args] of [
      [codeNavigate, { target: { path: '../outside.ts', line: 1 }, kind: 'definition' }],
      [codeSymbols, { path: '/etc/hostname' }],
      [codeSymbols, { path: 'src/missing.ts' }],
      [codeHover, { target: { path: 'src/shapes.ts', symbol: 'Triangle' } }],
      [codeHierarchy, { target: { path: 'src/shapes.ts', symbol: 'Shape' }, kind: 'callers', cursor: 'nonsense' }],
      [codeSymbols, { path: 'notes/build.php' }],
    ] as const) {
      const outcome = await call(tool, args)
      expect(outcome.ok).toBe(false)
    }
    // A model may pass an absolute path; the answer still speaks workspace-relative paths.
    const absolute = structured(await call(codeSymbols, { path: nodePath.join(root, 'src/shapes.ts') }))
    expect(absolute.path).toBe('src/shapes.ts')
  })

  it('code_status: workspaces by id, no root anywhere', async () => {
    // The model addresses roots by id; code_status names them by id only, so nothing in it quotes the root.
    const outcome = await call(codeStatus, {})
    const result = structured(outcome)
    expect(result.workspaces).toEqual([{ id: nodePath.basename(root) }])
    expect(outcome.text).toContain(`workspaces: ${nodePath.basename(root)}\n`)
  })

  it('ctx.lsp: harness code gets the same text, with absolute path and uri fields kept for structure', async () => {
    const position = { line: lineOf('src/telemetry.ts', 'export function track') - 1, character: 'export function '.length }
    const prepared = await real.lsp.query({ operation: 'prepareCallHierarchy', root, path: 'src/telemetry.ts', position })
    const incoming = await real.lsp.query({ operation: 'incomingCalls', root, item: prepared.items[0]! })
    const moduleCaller = incoming.calls.find((c) => c.item.kind === 'module')
    // The name is rewritten; `path` (and `uri`) stay absolute: the seam and the tools use them structurally.
    expect(moduleCaller?.item.name).toMatch(/^src\/(main\.test|lazy|ns)\.ts$/)
    expect(moduleCaller?.item.path).toBe(nodePath.join(root, moduleCaller!.item.name))
    // Following up from a rewritten item still works: the provider's data is passed back untouched.
    const outgoing = await real.lsp.query({ operation: 'outgoingCalls', root, item: moduleCaller!.item })
    expect(outgoing.calls.map((c) => c.item.name)).toContain('track')
    const diagnostics = await real.lsp.query({ operation: 'diagnostics', root, path: 'src/lazy.ts' })
    expect(diagnostics.files[0]?.path).toBe(nodePath.join(root, 'src/lazy.ts'))
    for (const value of [
      prepared.items.map(({ name, detail }) => ({ name, detail })),
      incoming.calls.map((c) => [c.item.name, c.item.detail]),
      diagnostics.files.map((f) => f.diagnostics),
    ]) {
      expectNoRoot('ctx.lsp', value)
    }
  })

  it('the checks ran against real answers', () => {
    expect(seen.filter((s) => s.outcome.ok).length).toBeGreaterThan(30)
  })
})
