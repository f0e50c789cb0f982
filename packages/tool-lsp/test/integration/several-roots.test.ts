import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

import { createLsp, type LspService } from '@codeseam/lsp'
import { createLocalHost, type LocalHost } from '@codeseam/lsp-local'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { codeHierarchy } from '../../src/hierarchy.js'
import { codeNavigate } from '../../src/navigation.js'
import { callTool, toMcpTool, toolContext, type AnyTool, type ToolContext } from '../../src/index.js'
import { structured } from '../support/real-host.js'
import { validateDraft07 } from '../support/schema-rules.js'

// Two roots of one workspace (RFC 0025), the second importing the first by relative path: the tools show a
// location in the other root as an answer — its path relative to that root, its root id, its source line and the
// symbol it sits in — never as "outside the workspace".
const fixture = nodePath.join(nodePath.dirname(fileURLToPath(import.meta.url)), '../../../lsp-local/test/fixtures/multi-root-ts')

/** 1-based line of the first line holding `needle` in a fixture file. */
function lineOf(parent: string, file: string, needle: string): number {
  const index = readFileSync(nodePath.join(parent, file), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(needle))
  if (index === -1) throw new Error(`"${needle}" is not in ${file}`)
  return index + 1
}

describe('tools over two roots of one workspace', { timeout: 180_000 }, () => {
  let parent: string
  let host: LocalHost
  let lsp: LspService
  let context: ToolContext
  const call = async (tool: AnyTool, args: unknown) => {
    const outcome = await callTool(tool, args, context)
    if (outcome.ok) expect(validateDraft07(toMcpTool(tool).outputSchema, outcome.structured)).toEqual([])
    return structured(outcome)
  }

  beforeAll(async () => {
    parent = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-several-roots-')))
    cpSync(fixture, parent, { recursive: true })
    host = await createLocalHost()
    lsp = createLsp()
    await host.attach(lsp, [
      { root: nodePath.join(parent, 'lib'), id: 'lib', trust: 'trusted' },
      { root: nodePath.join(parent, 'app'), id: 'app', trust: 'trusted' },
    ])
    context = toolContext(lsp)
  })
  afterAll(async () => {
    await lsp?.dispose()
    await host?.dispose()
    rmSync(parent, { recursive: true, force: true })
  })

  it('references reach into the other root, shown relative to it with its root id, snippet and container', async () => {
    const result = await call(codeNavigate, { kind: 'references', target: { path: 'src/shapes.ts', rootId: 'lib', symbol: 'totalArea' } })
    const inApp = result.files.find((f: { path: string; rootId?: string }) => f.rootId === 'app')
    expect(inApp?.path).toBe('src/main.ts')
    const use = inApp.locations.find((l: { line: number }) => l.line === lineOf(parent, 'app/src/main.ts', 'return totalArea'))
    expect(use.snippet).toContain('totalArea(')
    expect(use.container).toBe('mixedArea')
    // The target's own root carries no rootId; nothing was left out as outside the workspace.
    expect(result.files.filter((f: { rootId?: string }) => f.rootId === undefined).map((f: { path: string }) => f.path)).toContain(
      'src/report.ts',
    )
    expect(result.notice ?? '').not.toContain('outside the workspace')
  })

  it('a definition in the other root comes with its body', async () => {
    const result = await call(codeNavigate, {
      kind: 'definition',
      target: { path: 'src/main.ts', rootId: 'app', line: lineOf(parent, 'app/src/main.ts', 'return totalArea'), matchText: 'totalArea' },
      includeBody: true,
    })
    expect(result.files.map((f: { path: string; rootId?: string }) => [f.rootId, f.path])).toEqual([['lib', 'src/shapes.ts']])
    expect(result.bodies?.[0]?.rootId).toBe('lib')
    expect(result.bodies?.[0]?.text).toContain('shapes.reduce')
  })

  it('the implementations of an interface in one root include a class of the other, as hierarchy nodes too', async () => {
    const implementations = await call(codeNavigate, {
      kind: 'implementation',
      target: { path: 'src/shapes.ts', rootId: 'lib', symbol: 'Shape' },
    })
    expect(implementations.files.some((f: { path: string; rootId?: string }) => f.rootId === 'app' && f.path === 'src/circle.ts')).toBe(
      true,
    )
    const subtypes = await call(codeHierarchy, { kind: 'subtypes', target: { path: 'src/shapes.ts', rootId: 'lib', symbol: 'Shape' } })
    const circle = subtypes.direct.find((d: { name: string }) => d.name === 'Circle')
    expect(circle).toMatchObject({ path: 'src/circle.ts', rootId: 'app', line: lineOf(parent, 'app/src/circle.ts', 'class Circle') })
  })
})
