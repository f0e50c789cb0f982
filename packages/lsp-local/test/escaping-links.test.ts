// A project file swapped for a symbolic link that points out of the root: the native TypeScript server reads
// its project's files itself, so codeseam masks such a file (open on the server with empty text) before the
// server can read the outside file through it. Found by `pnpm soak`: without the mask, names from the outside
// file showed in workspace symbols under the in-root path for as long as the server kept them.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterEach, describe, expect, test } from 'vitest'
import { createLsp, resolveFile, resolveTarget, type LspService } from '@codeseam/lsp'

import { createLocalHost, type LocalHost } from '../src/index.js'

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

/** A TypeScript project with `src/b.ts`, and a file outside the root whose names must never show. */
function workspace(): { root: string; b: string; outside: string } {
  const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-escaping-links-')))
  cleanup.push(() => rmSync(base, { recursive: true, force: true }))
  const root = nodePath.join(base, 'root')
  mkdirSync(nodePath.join(root, 'src'), { recursive: true })
  writeFileSync(nodePath.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, include: ['src'] }))
  writeFileSync(nodePath.join(root, 'src/a.ts'), "import { inside_b } from './b'\nexport const useB = inside_b\n")
  writeFileSync(nodePath.join(root, 'src/b.ts'), 'export const inside_b = 1\n')
  const outside = nodePath.join(base, 'outside.ts')
  writeFileSync(outside, 'export const outside_secret = 42\nexport function outside_fn(): void {}\n')
  return { root, b: nodePath.join(root, 'src/b.ts'), outside }
}

async function open(root: string): Promise<LspService> {
  const host: LocalHost = await createLocalHost()
  const lsp = createLsp()
  await host.attach(lsp, [{ root, trust: 'trusted' }])
  cleanup.push(async () => {
    await lsp.dispose()
    await host.dispose()
  })
  return lsp
}

const names = async (lsp: LspService, root: string, query: string) =>
  (await lsp.query({ operation: 'workspaceSymbols', root, query })).symbols.map(
    (s) => `${s.name} ${nodePath.relative(root, s.location.path)}`,
  )

const swapIn = (b: string, outside: string) => {
  renameSync(b, `${b}.aside`)
  symlinkSync(outside, b)
}
const swapBack = (b: string) => {
  rmSync(b)
  renameSync(`${b}.aside`, b)
}

describe('a project file that is a symbolic link out of the root', { timeout: 120_000 }, () => {
  test('present when the server starts: masked, so nothing from outside shows, before or after it is swapped back', async () => {
    const { root, b, outside } = workspace()
    swapIn(b, outside)
    const lsp = await open(root)
    expect(await names(lsp, root, 'outside')).toEqual([])
    swapBack(b)
    expect(await names(lsp, root, 'outside')).toEqual([])
    expect(await names(lsp, root, 'inside_b')).toContain('inside_b src/b.ts')
  })

  test('swapped in while the server runs: masked, and its own text is back once it is swapped back', async () => {
    const { root, b, outside } = workspace()
    const lsp = await open(root)
    expect(await names(lsp, root, 'inside_b')).toContain('inside_b src/b.ts')
    swapIn(b, outside)
    expect(await names(lsp, root, 'outside')).toEqual([])
    swapBack(b)
    expect(await names(lsp, root, 'outside')).toEqual([])
    expect(await names(lsp, root, 'inside_b')).toContain('inside_b src/b.ts')
  })

  test('a file query on it is OUTSIDE_WORKSPACE naming the link and where it leads, not "does not exist"', async () => {
    const { root, b, outside } = workspace()
    const lsp = await open(root)
    swapIn(b, outside)
    const refusal = {
      code: 'OUTSIDE_WORKSPACE',
      message: expect.stringMatching(/"src\/b\.ts" resolves \(through a symbolic link\) to .*outside\.ts, outside the workspace root/),
    }
    // As a tool aims it (the seam reads the file once), as a file-only tool finds it, and as a plain query.
    await expect(resolveTarget(lsp, { path: 'src/b.ts' })).rejects.toMatchObject(refusal)
    await expect(resolveFile(lsp, 'src/b.ts')).rejects.toMatchObject(refusal)
    await expect(lsp.query({ operation: 'documentSymbols', root, path: 'src/b.ts' })).rejects.toMatchObject({ code: 'OUTSIDE_WORKSPACE' })
    // A path that names nothing is still NOT_FOUND.
    await expect(resolveTarget(lsp, { path: 'src/none.ts' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(resolveFile(lsp, 'src/none.ts')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
