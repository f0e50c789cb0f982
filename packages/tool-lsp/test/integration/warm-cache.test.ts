import { readFileSync, writeFileSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pathToUri } from '@codeseam/lsp'

import { readCacheLimits } from '../../../lsp-local/src/workspace/read-cache.js'
import { codeHover } from '../../src/hover.js'
import { codeNavigate } from '../../src/navigation.js'
import { codeSymbols } from '../../src/symbols.js'
import { typeScriptProject, type Project } from '../support/projects.js'
import { startRealHost, structured, type RealHost } from '../support/real-host.js'

/**
 * Issue 15: warm calls reuse what they read (file snapshots while the stat key holds, outlines per content
 * hash, line tables per hash). Each case warms a cache, changes the file (on disk, or through an edit), and
 * asks again: the answer must be the new file's, never a kept one.
 */
describe('warm calls never serve a changed file from a cache', { timeout: 120_000 }, () => {
  let project: Project
  let real: RealHost
  const racyChangeMs = readCacheLimits.racyChangeMs
  const path = (relative: string) => nodePath.join(project.root, relative)
  /** Rewrites a file on disk by replacing text in it. */
  const rewrite = (relative: string, from: string, to: string) => {
    const before = readFileSync(path(relative), 'utf8')
    expect(before).toContain(from)
    writeFileSync(path(relative), before.replace(from, to))
  }

  beforeAll(async () => {
    // Files written moments ago are never kept (see racyChangeMs): here they count as settled, so the
    // caches are at work and a stale answer would show.
    readCacheLimits.racyChangeMs = 0
    project = await typeScriptProject(2)
    real = await startRealHost(project.root)
  }, 120_000)

  afterAll(async () => {
    readCacheLimits.racyChangeMs = racyChangeMs
    await real?.dispose()
    await project?.remove()
  })

  const definitionOfDescribe = async () => {
    const line = project.lineOf('src/main.ts', 'describe(new Square')
    const result = structured(
      await real.call(codeNavigate, { target: { path: 'src/main.ts', line, matchText: 'describe' }, kind: 'definition' }),
    )
    expect(result.files[0].path).toBe('src/shapes.ts')
    return result.files[0].locations[0].snippet as string
  }

  it('a snippet of a file changed on disk shows the new line', async () => {
    expect(await definitionOfDescribe()).toBe('export function describe(shape: Shape): string {')
    expect(await definitionOfDescribe()).toBe('export function describe(shape: Shape): string {')
    // Same position of the name, new text after it.
    rewrite(
      'src/shapes.ts',
      'describe(shape: Shape): string {\n  return `${shape.name}',
      'describe(thing: Shape): string {\n  return `${thing.name}',
    )
    expect(await definitionOfDescribe()).toBe('export function describe(thing: Shape): string {')
  })

  /** Hover on `report` by symbol: the target line comes from the outline of the file as read. */
  const reportLine = async () =>
    structured(await real.call(codeHover, { target: { path: 'src/main.ts', symbol: 'report' } })).target.line as number

  it('a target resolved by symbol follows the file when lines are inserted above it (outline and read not kept)', async () => {
    const before = await reportLine()
    expect(before).toBe(project.lineOf('src/main.ts', 'export function report'))
    expect(await reportLine()).toBe(before)
    rewrite('src/main.ts', "import { track } from './telemetry'\n", "import { track } from './telemetry'\n// one\n// two\n")
    expect(await reportLine()).toBe(before + 2)
  })

  it('a target and an outline follow an edit applied through the workspace', async () => {
    const before = await reportLine()
    const workspace = real.lsp.workspace(project.root)!
    const file = path('src/main.ts')
    await workspace.applyEdit({
      operations: [
        {
          type: 'edit',
          uri: pathToUri(file),
          path: file,
          version: null,
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '// edited\n' }],
        },
      ],
    })
    expect(await reportLine()).toBe(before + 1)
  })

  it('the outline of a file changed on disk names the new symbol', async () => {
    const names = async () => JSON.stringify(structured(await real.call(codeSymbols, { path: 'src/telemetry.ts' })).outline) as string
    expect(await names()).not.toContain('untrack')
    expect(await names()).toContain('"track"')
    rewrite('src/telemetry.ts', 'let total = 0\n', 'let total = 0\n\nexport function untrack(): void {}\n')
    expect(await names()).toContain('"untrack"')
  })
})
