// Limits before work (RFC 0013) against the bundled native TypeScript server, with the default limits: the
// issue's files — a 46 MB generated `.ts`, 200 KB of random bytes named `bin.ts`, a minified bundle — answer a
// typed error (file queries) or are skipped and counted (workspace-wide queries), the server is never
// restarted, and its process tree's memory stays near an idle server's. Durations and RSS are printed
// (measurements), never asserted as times.
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLsp, type LspService } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'
import { LeakCheck, positionOf } from './helpers.js'

const MiB = 1024 * 1024

/** `export const vN = N` lines up to `bytes`: the issue's generated file. */
function generated(bytes: number): string {
  const lines: string[] = []
  let size = 0
  for (let n = 0; size < bytes; n++) {
    const line = `export const v${n} = ${n}\n`
    lines.push(line)
    size += line.length
  }
  return lines.join('')
}

/** One line of `function fN(a){return a+N};` up to `bytes`: a minified bundle. */
function minified(bytes: number): string {
  const parts: string[] = []
  let size = 0
  for (let n = 0; size < bytes; n++) {
    const part = `function f${n}(a){return a+${n}};`
    parts.push(part)
    size += part.length
  }
  return parts.join('')
}

describe('per-file limits on the native TypeScript server', () => {
  const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-file-limits-')))
  const leaks = new LeakCheck()
  const files = { huge: 'gen/huge.ts', bin: 'bin.ts', min: 'vendor.min.ts' } as const
  let host: LocalHost
  let lsp: LspService
  let idleRss = 0
  let peakRss = 0
  const timings: Record<string, number> = {}

  const sampleRss = async (): Promise<number> => {
    const status = (await host.statusWithMemory()).find((s) => s.server === 'typescript')
    const rss = status?.rssBytes ?? 0
    peakRss = Math.max(peakRss, rss)
    return rss
  }
  const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now()
    try {
      return await run()
    } finally {
      timings[label] = Math.round(performance.now() - started)
      await sampleRss()
    }
  }

  beforeAll(async () => {
    mkdirSync(nodePath.join(root, 'gen'))
    writeFileSync(nodePath.join(root, 'greet.ts'), 'export function greet(name: string): string {\n  return name\n}\n')
    writeFileSync(nodePath.join(root, 'main.ts'), 'import { greet } from "./greet"\n\nexport const hello = greet("world")\n')
    writeFileSync(nodePath.join(root, files.huge), generated(46 * MiB))
    writeFileSync(nodePath.join(root, files.bin), Buffer.concat([Buffer.from([0]), randomBytes(200 * 1024)]))
    writeFileSync(nodePath.join(root, files.min), minified(1 * MiB))
    host = await createLocalHost()
    lsp = createLsp()
    await host.attach(lsp, [{ root, trust: 'trusted' }])
    // An idle server: started, one file answered.
    const symbols = await lsp.query({ operation: 'documentSymbols', root, path: 'greet.ts' })
    expect(symbols.symbols.map((s) => s.name)).toContain('greet')
    idleRss = await sampleRss()
  }, 120_000)

  afterAll(async () => {
    console.log(
      `[file-limits] native TypeScript: idle tree ${Math.round(idleRss / MiB)} MB, peak ${Math.round(peakRss / MiB)} MB; ms per query: ${JSON.stringify(timings)}`,
    )
    await leaks.record()
    await lsp.dispose()
    await host.dispose()
    const survivors = await leaks.survivors()
    rmSync(root, { recursive: true, force: true })
    expect(survivors, 'server processes still alive after dispose').toEqual([])
  })

  test('file queries answer UNAVAILABLE naming the limit', async () => {
    await expect(timed('symbols huge', () => lsp.query({ operation: 'documentSymbols', root, path: files.huge }))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      data: { limit: 'maxFileBytes', ceiling: 4 * MiB, path: files.huge },
    })
    await expect(timed('symbols bin', () => lsp.query({ operation: 'documentSymbols', root, path: files.bin }))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      data: { limit: 'binary' },
    })
    await expect(timed('symbols min', () => lsp.query({ operation: 'documentSymbols', root, path: files.min }))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      data: { limit: 'maxLineLength', ceiling: 10_000 },
    })
  })

  test('workspace-wide queries skip them and count them in the coverage', async () => {
    const position = positionOf(root, 'greet.ts', 'greet')
    const references = await timed('references', () => lsp.query({ operation: 'references', root, path: 'greet.ts', position }))
    expect(references.locations.some((l) => l.path === nodePath.join(root, 'main.ts'))).toBe(true)
    const expected = expect.arrayContaining([
      { limit: 'maxFileBytes', count: 1, ceiling: 4 * MiB },
      { limit: 'binary', count: 1 },
      { limit: 'maxLineLength', count: 1, ceiling: 10_000 },
    ])
    expect(references.meta.coverage?.filesSkipped).toEqual(expected)
    expect(references.meta.coverage?.complete).toBe(false)
    const symbols = await timed('workspaceSymbols', () => lsp.query({ operation: 'workspaceSymbols', root, query: 'greet' }))
    expect(symbols.symbols.map((s) => s.name)).toContain('greet')
    expect(symbols.meta.coverage?.filesSkipped).toEqual(expected)
  })

  test('no restart, and the tree stays within 100 MB of the idle server', async () => {
    await sampleRss()
    const status = host.status().find((s) => s.server === 'typescript')
    expect(status?.restarts).toBe(0)
    expect(status?.state).not.toBe('crashed')
    expect(peakRss - idleRss).toBeLessThan(100 * MiB)
  })
})

describe('a TypeScript project whose first file in path order is binary', () => {
  test('loads through its next file: the search covers the project and counts nothing as skipped', async () => {
    const root = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-file-limits-project-')))
    writeFileSync(nodePath.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }))
    mkdirSync(nodePath.join(root, 'src'))
    // `a-bin.ts` sorts before every other file of the project, so it is the file the project is loaded through.
    writeFileSync(nodePath.join(root, 'src/a-bin.ts'), Buffer.concat([Buffer.from([0]), randomBytes(4 * 1024)]))
    writeFileSync(nodePath.join(root, 'src/greet.ts'), 'export function greet(name: string): string {\n  return name\n}\n')
    writeFileSync(nodePath.join(root, 'src/main.ts'), 'import { greet } from "./greet"\n\nexport const hello = greet("world")\n')
    const host = await createLocalHost()
    const lsp = createLsp()
    try {
      await host.attach(lsp, [{ root, trust: 'trusted' }])
      const symbols = await lsp.query({ operation: 'workspaceSymbols', root, query: 'hello' })
      expect(symbols.symbols.map((s) => s.location.path)).toContain(nodePath.join(root, 'src/main.ts'))
      expect(symbols.meta.coverage).toMatchObject({ projectsSearched: 1, projectsFound: 1, complete: true })
      expect(symbols.meta.coverage?.filesSkipped).toBeUndefined()
    } finally {
      await lsp.dispose()
      await host.dispose()
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
