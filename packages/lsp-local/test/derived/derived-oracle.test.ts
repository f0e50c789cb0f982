// The type-hierarchy oracle (issue 16): where the server has no type hierarchy (native TypeScript 7, pyright) or
// no implementation (pyright), lsp-local derives them. For every class (TS: and interface) an independent
// reading of the source finds — the compiler API's heritage clauses and type checker; Python's `ast` run by
// python3 — codeseam's supertypes and subtypes equal the oracle's, by declaration file and line, unresolved
// bases by name; Python implementation at every overridden method equals the overriding methods. One cold
// codeseam host per workspace. Real servers, nothing mocked.
//
// Run: cd packages/lsp-local && npx vitest run test/derived
// Env: CODESEAM_DERIVED_REPORT (a file the table is also written to), CODESEAM_CORPORA_DIR (the corpora folder,
// default ../shared/corpora).
import { writeFileSync } from 'node:fs'

import { afterAll, describe, expect, test } from 'vitest'

import { LeakCheck, copyFixture } from '../helpers.js'
import type { OracleLanguage } from '../oracle/oracle.js'
import { corporaFolder, unpackCorpora, type OracleWorkspace } from '../oracle/workspaces.js'
import { pythonHeritage, type HeritageOracle } from './heritage.js'
import { typeScriptHeritage } from './ts-heritage.js'
import { compareHierarchy, isEqual, type HierarchyComparison } from './seam-hierarchy.js'
import { formatHierarchyDifferences, formatHierarchyTable, hierarchyRows } from './table.js'

const comparisons: HierarchyComparison[] = []
const notes: string[] = []
const leaks = new LeakCheck()

function fixtureWorkspace(name: string, language: OracleLanguage): OracleWorkspace {
  const { root, remove } = copyFixture(name)
  return { name, root, language, remove }
}

/** Judges one workspace: the oracle, then codeseam from one cold host; fails with the differences. */
async function judge(workspace: OracleWorkspace, minimumOverrides = 0): Promise<void> {
  try {
    const started = performance.now()
    const oracle = heritageOf(workspace.root, workspace.language)
    const oracleMs = performance.now() - started
    const found = await compareHierarchy({
      workspace: workspace.name,
      root: workspace.root,
      language: workspace.language,
      oracle,
      beforeDispose: () => leaks.record(),
    })
    comparisons.push(...found)
    const seconds = (ms: number) => (ms / 1000).toFixed(1)
    notes.push(
      `${workspace.name}: ${oracle.declarations.length} declarations, ${oracle.overrides.length} overridden methods; ` +
        `oracle ${seconds(oracleMs)} s, codeseam ${seconds(performance.now() - started - oracleMs)} s`,
    )
    // A workspace with nothing to compare proves nothing.
    expect(oracle.declarations.length).toBeGreaterThan(0)
    expect(oracle.overrides.length).toBeGreaterThanOrEqual(minimumOverrides)
    const wrong = found.filter((comparison) => !isEqual(comparison))
    expect(wrong.length, `${formatHierarchyTable(hierarchyRows(found))}\n${formatHierarchyDifferences(wrong, 60)}`).toBe(0)
  } finally {
    workspace.remove()
  }
}

describe("derived type hierarchy and implementation equal the source's independent reading", () => {
  let unpacked: OracleWorkspace[] | undefined
  afterAll(async () => {
    for (const workspace of unpacked ?? []) workspace.remove()
    const table = formatHierarchyTable(hierarchyRows(comparisons))
    const differences = formatHierarchyDifferences(comparisons)
    const report = [...notes, '', table, '', differences === '' ? 'no differences' : `differences:\n${differences}`].join('\n')
    console.log(`\ntype-hierarchy oracle\n${report}\n`)
    const file = process.env['CODESEAM_DERIVED_REPORT']
    if (file !== undefined && file !== '') writeFileSync(file, `${report}\n`)
    expect(await leaks.survivors()).toEqual([])
  }, 30_000)

  test('fixture: ts-hierarchy', () => judge(fixtureWorkspace('ts-hierarchy', 'typescript')), 120_000)
  // Every overridden method of the fixture (ten): with flask's, more than the twenty the issue asks for.
  test('fixture: py-hierarchy', () => judge(fixtureWorkspace('py-hierarchy', 'python'), 10), 120_000)

  const corpora = corporaFolder()
  if (corpora === undefined)
    console.log('type-hierarchy oracle: ../shared/corpora is missing (or CODESEAM_CORPORA_DIR unset): the corpus workspaces are skipped')
  const corpus = (name: string): OracleWorkspace => {
    unpacked ??= unpackCorpora()
    const workspace = unpacked.find((candidate) => candidate.name === name)
    if (workspace === undefined) throw new Error(`corpus ${name} is not in ${corpora ?? '(none)'}`)
    return workspace
  }
  test.skipIf(corpora === undefined)('corpus: flask', () => judge(corpus('flask'), 10), 300_000)
  test.skipIf(corpora === undefined)('corpus: vscode-languageserver-node', () => judge(corpus('vscode-languageserver-node')), 600_000)
})

/** The oracle for a workspace's language. */
function heritageOf(root: string, language: OracleLanguage): HeritageOracle {
  return language === 'python' ? pythonHeritage(root) : typeScriptHeritage(root)
}
