// code_impact against an independent reading (issue 29, item 5): the depth-1 dependents codeseam derives
// (`impactOf` over the local host, first answer on a cold host) equal those read from the bare server with every
// file open: its references, each mapped to the innermost symbol of its document outline containing it.
//
// Run: cd packages/lsp-local && npx vitest run test/oracle/impact.test.ts
// Under CI=true a missing corpora folder fails; otherwise the corpora are skipped, saying so.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { createLsp, impactOf } from '@codeseam/lsp'
import { describe, expect, test } from 'vitest'
import type { DocumentSymbol } from 'vscode-languageserver-protocol'

import { createLocalHost } from '../../src/index.js'
import { OracleServer, type SymbolTarget } from './oracle.js'
import { corporaFolder, unpackCorpus, type OracleWorkspace } from './workspaces.js'

const inCI = process.env['CI'] === 'true'

/** A target found by searching the text: the first line matching `line`, at the first `name` on it. */
interface Probe {
  readonly path: string
  readonly line: RegExp
  readonly name: string
}

const corpora: Record<string, ReadonlyArray<Probe>> = {
  'vscode-languageserver-node': [
    { path: 'jsonrpc/src/common/connection.ts', line: /^export function createMessageConnection\(/, name: 'createMessageConnection' },
    { path: 'client/src/common/utils/uuid.ts', line: /^export function generateUuid\(/, name: 'generateUuid' },
  ],
  flask: [
    { path: 'src/flask/helpers.py', line: /^def get_debug_flag\(/, name: 'get_debug_flag' },
    { path: 'src/flask/helpers.py', line: /^def _split_blueprint_path\(/, name: '_split_blueprint_path' },
  ],
}

function locate(root: string, probe: Probe): SymbolTarget {
  const lines = readFileSync(nodePath.join(root, probe.path), 'utf8').split('\n')
  const line = lines.findIndex((text) => probe.line.test(text))
  if (line < 0) throw new Error(`${probe.path}: no line matches ${probe.line}`)
  return { path: probe.path, name: probe.name, kind: 'function', line, character: lines[line]!.indexOf(probe.name) }
}

interface Flat {
  readonly kind: number
  readonly qualifiedName: string
  readonly range: DocumentSymbol['range']
  readonly selectionRange: DocumentSymbol['range']
}
// LSP SymbolKind numbers: Method 6, Constructor 9, Function 12; Variable 13, Constant 14.
const callables = new Set([6, 9, 12])
const bindings = new Set([13, 14])
/** The outline, flattened; a function's locals (variables, constants) are not dependents (RFC 0019). */
function flatten(symbols: ReadonlyArray<DocumentSymbol>, prefix = '', out: Flat[] = [], inCallable = false): Flat[] {
  for (const s of symbols) {
    if (inCallable && bindings.has(s.kind)) continue
    const qualifiedName = prefix === '' ? s.name : `${prefix}.${s.name}`
    out.push({ kind: s.kind, qualifiedName, range: s.range, selectionRange: s.selectionRange })
    flatten(s.children ?? [], qualifiedName, out, inCallable || callables.has(s.kind))
  }
  return out
}
const before = (a: { line: number; character: number }, b: { line: number; character: number }) =>
  a.line < b.line || (a.line === b.line && a.character <= b.character)
const contains = (r: Flat['range'], p: { line: number; character: number }) => before(r.start, p) && before(p, r.end)
const extent = (r: Flat['range']) => (r.end.line - r.start.line) * 1_000_000 + (r.end.character - r.start.character)
function innermost(symbols: ReadonlyArray<Flat>, p: { line: number; character: number }): Flat | undefined {
  let best: Flat | undefined
  for (const s of symbols) if (contains(s.range, p) && (best === undefined || extent(s.range) < extent(best.range))) best = s
  return best
}

/** The oracle's depth-1 dependents of `target`, as ids (`qualified.name@path:line` or `file:path`). */
async function expectedDependents(oracle: OracleServer, target: SymbolTarget): Promise<string[]> {
  const id = (path: string, s: Flat) => `${s.qualifiedName}@${path}:${s.selectionRange.start.line + 1}`
  const own = innermost(
    flatten(oracle.documentSymbols(target.path)).filter((s) => contains(s.selectionRange, target)),
    target,
  )
  const ownId = own === undefined ? undefined : id(target.path, own)
  const out = new Set<string>()
  for (const key of await oracle.references(target)) {
    const match = /^(.*)@(\d+):(\d+)-\d+:\d+$/.exec(key)
    if (match === null) throw new Error(`unexpected reference key ${key}`)
    const path = match[1]!
    const at = { line: Number(match[2]), character: Number(match[3]) }
    const inner = innermost(flatten(oracle.documentSymbols(path)), at)
    // A reference on the name of a variable in another file is an import binding: a file-level dependent.
    const enclosing =
      inner !== undefined && bindings.has(inner.kind) && contains(inner.selectionRange, at) && path !== target.path ? undefined : inner
    const dependent = enclosing === undefined ? `file:${path}` : id(path, enclosing)
    if (dependent !== ownId) out.add(dependent)
  }
  return [...out].sort()
}

async function judge(workspace: OracleWorkspace, probes: ReadonlyArray<Probe>): Promise<void> {
  const root = workspace.root
  const targets = probes.map((probe) => locate(root, probe))
  const expected = new Map<string, string[]>()
  const oracle = await OracleServer.start(root, workspace.language)
  try {
    for (const target of targets) expected.set(target.name, await expectedDependents(oracle, target))
  } finally {
    await oracle.dispose()
  }
  const report: string[] = []
  for (const target of targets) {
    // A cold host per target: the first answer is the one compared.
    const host = await createLocalHost()
    const lsp = createLsp()
    const release = await host.attach(lsp, [{ root }])
    try {
      const result = await impactOf(lsp, {
        root,
        path: nodePath.join(root, target.path),
        position: { line: target.line, character: target.character },
        depth: 1,
      })
      const actual = [
        ...new Set(result.dependents.map((d) => d.symbol?.id ?? `file:${nodePath.relative(root, d.path).split(nodePath.sep).join('/')}`)),
      ].sort()
      const want = expected.get(target.name) ?? []
      report.push(`${workspace.name} ${target.name}: oracle ${want.length} dependents, code_impact ${actual.length}`)
      expect(result.meta.derived?.from).toContain('references')
      expect(want.length, `${target.name}: the oracle must find dependents for the comparison to mean anything`).toBeGreaterThan(0)
      expect(actual, `${workspace.name} ${target.name}`).toEqual(want)
    } finally {
      await release()
      await lsp.dispose()
      await host.dispose()
    }
  }
  console.log(`\ncode_impact oracle\n${report.join('\n')}\n`)
}

describe('code_impact: depth-1 dependents equal the bare server with every file open, read through its outline', () => {
  const folder = corporaFolder()
  if (folder === undefined && !inCI) console.log('code_impact oracle: the corpora folder is missing; the corpora are skipped')
  for (const [name, probes] of Object.entries(corpora)) {
    test.skipIf(folder === undefined && !inCI)(
      `corpus: ${name}`,
      async () => {
        const workspace = unpackCorpus(name)
        try {
          await judge(workspace, probes)
        } finally {
          workspace.remove()
        }
      },
      300_000,
    )
  }
})
