import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { builtinProfiles } from '@codeseam/lsp-local'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { codeHierarchy } from '../../src/hierarchy.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

// The type hierarchy of a C++ class, answered by a real clangd through code_hierarchy. clangd is optional and
// has the standard LSP type hierarchy from version 17: found (or not) by the built-in profile's own lookup.
const clangd = (await builtinProfiles()).find((p) => p.id === 'clangd')
const skipReason =
  clangd === undefined
    ? 'there is no built-in clangd profile'
    : clangd.unavailable !== undefined
      ? clangd.unavailable
      : !clangd.operations?.includes('supertypes')
        ? `${clangd.command} is older than clangd 17 and has no type hierarchy: install a newer one (e.g. \`apt-get install -y clangd-19\`)`
        : undefined
if (skipReason !== undefined) console.log(`SKIPPED the clangd type-hierarchy tests: ${skipReason}`)

const fixture = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'cpp-types')
const header = 'shapes.hpp'
const headerText = readFileSync(nodePath.join(fixture, header), 'utf8')

/** 1-based line and column where `needle` starts in the header, found by text; `at` moves inside the needle. */
function where(needle: string, at = 0): { line: number; column: number } {
  const index = headerText.indexOf(needle)
  if (index === -1 || headerText.indexOf(needle, index + 1) !== -1) throw new Error(`"${needle}" is not in ${header} exactly once`)
  const before = headerText.slice(0, index + at)
  return { line: before.split('\n').length, column: index + at - before.lastIndexOf('\n') }
}

/** A class of the fixture as code_hierarchy shows it: its name, where the name is, and the node id. */
function cls(name: string) {
  const { line, column } = where(`class ${name}`, 'class '.length)
  return { name, kind: 'class', path: header, line, column, id: `${name}@${header}:${line}` }
}
const shape = cls('Shape')
const polygon = cls('Polygon')
const square = cls('Square')
const only = ({ name, kind, path, line, column }: ReturnType<typeof cls>) => ({ name, kind, path, line, column })

describe('code_hierarchy: the type hierarchy of a C++ class, from clangd', { timeout: 120_000 }, () => {
  let root: string
  let real: RealHost

  beforeAll(async () => {
    if (skipReason !== undefined) return
    root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'tool-lsp-clangd-types-')))
    cpSync(fixture, root, { recursive: true })
    real = await startRealHost(root)
  }, 120_000)

  afterAll(async () => {
    await real?.dispose()
    if (root !== undefined) rmSync(root, { recursive: true, force: true })
  })

  it('supertypes: the direct base, and with depth 2 its base too (edges point from derived to base)', async ({ skip }) => {
    skip(skipReason !== undefined, skipReason)
    const outcome = await real.call(codeHierarchy, { target: { path: header, symbol: 'Square' }, kind: 'supertypes', depth: 2 })
    const result = structured(outcome)
    expect(result.root).toMatchObject(only(square))
    expect(result.direct).toEqual([expect.objectContaining(only(polygon))])
    expect(result.page.total).toBe(1)
    expect(result.graph.nodes.map((n: any) => [n.id, n.depth])).toEqual([
      [square.id, 0],
      [polygon.id, 1],
      [shape.id, 2],
    ])
    expect(result.graph.edges).toEqual([
      { from: square.id, to: polygon.id },
      { from: polygon.id, to: shape.id },
    ])
    expect(outcome.text).toContain(`class Polygon  ${header}:${polygon.line}:${polygon.column}`)
    expect(outcome.summary).toBe('1 supertype · graph 3 nodes')
  })

  it('subtypes: the direct derived class, and with depth 2 the class derived from it', async ({ skip }) => {
    skip(skipReason !== undefined, skipReason)
    const line = where('class Shape').line
    const result = structured(
      await real.call(codeHierarchy, { target: { path: header, line, matchText: 'Shape' }, kind: 'subtypes', depth: 2 }),
    )
    expect(result.root).toMatchObject(only(shape))
    expect(result.direct).toEqual([expect.objectContaining(only(polygon))])
    expect(result.graph.nodes.map((n: any) => [n.id, n.depth])).toEqual([
      [shape.id, 0],
      [polygon.id, 1],
      [square.id, 2],
    ])
    expect(result.graph.edges).toEqual([
      { from: polygon.id, to: shape.id },
      { from: square.id, to: polygon.id },
    ])
  })

  it('the ends of the hierarchy: the most derived class has no subtypes, the base no supertypes', async ({ skip }) => {
    skip(skipReason !== undefined, skipReason)
    const leaf = structured(await real.call(codeHierarchy, { target: { path: header, symbol: 'Square' }, kind: 'subtypes' }))
    expect(leaf.root).toMatchObject(only(square))
    expect(leaf.direct).toEqual([])
    const base = structured(await real.call(codeHierarchy, { target: { path: header, symbol: 'Shape' }, kind: 'supertypes' }))
    expect(base.root).toMatchObject(only(shape))
    expect(base.direct).toEqual([])
  })
})
