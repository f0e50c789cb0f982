import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as nodePath from 'node:path'

import { afterAll, describe, expect, it } from 'vitest'

import {
  Containment,
  createLsp,
  isWorkspacePath,
  linesFor,
  resolveTarget,
  resultMeta,
  type LspProviderRequest,
  type LspQueryRequest,
} from '../src/index.js'
import { createMemoryWorkspace } from '../src/testing/index.js'
import { linesCacheLimits } from '../src/coordinates.js'

const base = realpathSync(mkdtempSync(nodePath.join(tmpdir(), 'codeseam-workspace-path-')))
const root = nodePath.join(base, 'root')
const outside = nodePath.join(base, 'outside')
/** The layout: files with their text, and symbolic links (`escape` leads out of the root, `inner` stays in). */
const layout: ReadonlyArray<readonly [string, { text: string } | { linkTo: string }]> = [
  ['root/src/A.D.TS', { text: 'a' }],
  ['outside/secret.ts', { text: 'secret' }],
  ['root/escape', { linkTo: outside }],
  ['root/inner', { linkTo: nodePath.join(root, 'src') }],
]
for (const [relative, entry] of layout) {
  const path = nodePath.join(base, relative)
  mkdirSync(nodePath.dirname(path), { recursive: true })
  if ('text' in entry) writeFileSync(path, entry.text)
  else symlinkSync(entry.linkTo, path)
}
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** Matches an LspError of `code`. */
const lspError = (code: string) => expect.objectContaining({ name: 'LspError', code })

describe('WorkspacePath', () => {
  it('carries the canonical path, the spelling given, the root, the relative path and the one extension', () => {
    const resolved = new Containment(root).resolve('inner/A.D.TS')
    expect(resolved).toMatchObject({
      path: nodePath.join(root, 'src', 'A.D.TS'),
      lexical: nodePath.join(root, 'inner', 'A.D.TS'),
      root,
      relative: 'src/A.D.TS',
      extension: '.ts',
      exists: true,
    })
    expect(new Containment(root).resolve('src/new.py')).toMatchObject({ exists: false, extension: '.py' })
  })

  it('is branded: a look-alike is not one, one of another root is not one for this root, and it cannot be altered', () => {
    const resolved = new Containment(root).resolve('src/A.D.TS')
    expect(isWorkspacePath(resolved)).toBe(true)
    expect(isWorkspacePath(resolved, root)).toBe(true)
    expect(isWorkspacePath(resolved, outside)).toBe(false)
    expect(isWorkspacePath({ ...resolved })).toBe(false)
    expect(() => {
      ;(resolved as { path: string }).path = nodePath.join(outside, 'secret.ts')
    }).toThrow(TypeError)
  })

  it('refuses symlinks out and traversal (OUTSIDE_WORKSPACE), over-long paths before any file-system work (INVALID_ARGUMENT)', () => {
    const containment = new Containment(root)
    expect(() => containment.resolve('escape/secret.ts')).toThrow(lspError('OUTSIDE_WORKSPACE'))
    expect(() => containment.resolve('../outside/secret.ts')).toThrow(lspError('OUTSIDE_WORKSPACE'))
    expect(() => containment.resolve('a/'.repeat(2100))).toThrow(lspError('INVALID_ARGUMENT'))
  })
})

describe('one resolution per request', () => {
  const text = 'export const answer = 42\n'

  async function setup() {
    const lsp = createLsp()
    const seen: Array<LspProviderRequest<LspQueryRequest>> = []
    lsp.registerProvider({
      id: 'echo',
      extensions: { '.ts': 'typescript' },
      operations: ['hover'],
      query: async (request) => {
        seen.push(request as LspProviderRequest<LspQueryRequest>)
        return { kind: 'hover', hover: null, meta: resultMeta('echo') } as never
      },
    })
    lsp.registerWorkspace(createMemoryWorkspace({ id: 'app', root: '/work/app', files: { 'src/a.ts': text } }))
    return { lsp, seen }
  }

  it('the provider gets the resolved file, and the snapshot only when the seam read it for that file in this call', async () => {
    const { lsp, seen } = await setup()
    const target = await resolveTarget(lsp, { path: 'src/a.ts', line: 1, matchText: 'answer' })
    const request = { operation: 'hover', root: target.root, path: target.path, position: target.position } as const
    await lsp.query({ ...request, document: target.document })
    await lsp.query(request)
    await lsp.query({ ...request, document: { ...target.document } })
    expect(seen.map((r) => isWorkspacePath(r.file, '/work/app') && r.file.relative)).toEqual(['src/a.ts', 'src/a.ts', 'src/a.ts'])
    expect(seen.map((r) => r.snapshot === target.document)).toEqual([true, false, false])
    // The caller's read-along field is not passed on as such.
    expect(seen.every((r) => !('document' in r))).toBe(true)
  })

  it('one TextLines per content hash, shared by every layer', async () => {
    const { lsp } = await setup()
    const target = await resolveTarget(lsp, { path: 'src/a.ts', line: 1 })
    expect(linesFor(target.document)).toBe(target.lines)
    expect(linesFor({ text, hash: target.document.hash })).toBe(target.lines)
  })

  it('the shared line tables are bounded by count and by total text', () => {
    const huge = 'x'.repeat(linesCacheLimits.characters + 1)
    // A text larger than the whole budget is split but not kept.
    expect(linesFor({ text: huge, hash: 'huge' })).not.toBe(linesFor({ text: huge, hash: 'huge' }))
    const first = linesFor({ text: 'first\n', hash: 'bounded-first' })
    expect(linesFor({ text: 'first\n', hash: 'bounded-first' })).toBe(first)
    for (let i = 0; i < linesCacheLimits.entries; i++) linesFor({ text: `t${i}\n`, hash: `bounded-${i}` })
    // The least recently used table went when the count was exceeded.
    expect(linesFor({ text: 'first\n', hash: 'bounded-first' })).not.toBe(first)
  })
})
