// Mutation atomicity under real, injected write failures: an immutable file (chattr +i stops even root),
// an immutable folder, a file where a folder should be, a file turned into a folder while the change waits
// for approval. Whatever fails, the outcome is a typed error and every file is exactly as before: all or
// nothing, no temp files left behind. Then the same change succeeds once the obstacle is gone.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import * as nodePath from 'node:path'

import { afterAll, afterEach, describe, expect, it } from 'vitest'

import { isLspError, pathToUri, TextLines, type LspWorkspaceEdit } from '@codeseam/lsp'

import { aText, bText, cText, createFixture, listTree, treeHashes, type Fixture } from './support/fixture.js'
import { finishSuite, ResultRecorder } from './support/results.js'
import { openStack, type Stack } from './support/stack.js'

const recorder = new ResultRecorder('atomicity')
const immutable = new Set<string>()
let open: Array<{ fixture: Fixture; stack: Stack }> = []

/** chattr +i works here (root on ext4 and the like): the one write failure even root cannot bypass. */
const canLock = (() => {
  try {
    execFileSync('chattr', ['--help'], { stdio: 'ignore' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
  }
  return process.getuid?.() === 0
})()

function lock(path: string): void {
  execFileSync('chattr', ['+i', path])
  immutable.add(path)
}

function unlock(path: string): void {
  execFileSync('chattr', ['-i', path])
  immutable.delete(path)
}

async function world(options: Parameters<typeof openStack>[1] = {}): Promise<{ fixture: Fixture; stack: Stack }> {
  const fixture = await createFixture('reliability-atomicity-')
  const stack = await openStack(fixture.root, options)
  open.push({ fixture, stack })
  return { fixture, stack }
}

afterEach(async () => {
  for (const path of [...immutable]) unlock(path)
  for (const { fixture, stack } of open) {
    await stack.dispose()
    await fixture.dispose()
  }
  open = []
}, 60_000)

afterAll(() => finishSuite(recorder), 60_000)

/** Replaces the first line of a file: one text edit. */
function firstLineEdit(root: string, relative: string, text: string, newText: string): LspWorkspaceEdit['operations'][number] {
  const path = nodePath.join(root, relative)
  const lines = new TextLines(text)
  return {
    type: 'edit',
    uri: pathToUri(path),
    path,
    version: null,
    edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: lines.lineText(0).length } }, newText }],
  }
}

/** Applies through ctx.lsp (the lsp-local applier) and returns the error code, or 'applied'. */
async function apply(stack: Stack, operations: LspWorkspaceEdit['operations']): Promise<string> {
  try {
    await stack.lsp.applyEdit({ operations }, { root: stack.root })
    return 'applied'
  } catch (error) {
    if (!isLspError(error)) throw error
    return error.code
  }
}

const original = { 'src/a.ts': aText, 'src/b.ts': bText, 'lib/c.ts': cText }

function expectUntouched(fixture: Fixture, before: Record<string, string>, treeBefore: string[]): void {
  for (const [relative, text] of Object.entries(original))
    expect(readFileSync(nodePath.join(fixture.root, relative), 'utf8'), relative).toBe(text)
  expect(treeHashes(fixture.root)).toEqual(before)
  expect(listTree(fixture.root), 'files left behind (temp files, created files)').toEqual(treeBefore)
}

describe('mutation atomicity under injected write failures', { timeout: 120_000 }, () => {
  const results: Record<string, number> = {}
  afterAll(() => {
    recorder.record(
      'atomic edits under write failures',
      'a multi-file change that hits a real write failure is a typed error and leaves every file byte-identical, with no temp or half-created files; removing the obstacle lets the same change through',
      results,
    )
  })
  const count = (key: string) => {
    results[key] = (results[key] ?? 0) + 1
  }

  it.skipIf(!canLock)('an immutable file as the last of three edits: WRITE_FAILED, the first two rolled back', async () => {
    const { fixture, stack } = await world()
    const before = treeHashes(fixture.root)
    const tree = listTree(fixture.root)
    lock(nodePath.join(fixture.root, 'lib/c.ts'))
    const operations = [
      firstLineEdit(fixture.root, 'src/a.ts', aText, '// edited a'),
      firstLineEdit(fixture.root, 'src/b.ts', bText, '// edited b'),
      firstLineEdit(fixture.root, 'lib/c.ts', cText, '// edited c'),
    ]
    expect(await apply(stack, operations)).toBe('WRITE_FAILED')
    expectUntouched(fixture, before, tree)
    unlock(nodePath.join(fixture.root, 'lib/c.ts'))
    expect(await apply(stack, operations)).toBe('applied')
    expect(readFileSync(nodePath.join(fixture.root, 'lib/c.ts'), 'utf8').startsWith('// edited c')).toBe(true)
    count('applier: immutable file')
  })

  it.skipIf(!canLock)('an immutable folder (no file can be created in it): WRITE_FAILED, the other file rolled back', async () => {
    const { fixture, stack } = await world()
    const before = treeHashes(fixture.root)
    const tree = listTree(fixture.root)
    lock(nodePath.join(fixture.root, 'lib'))
    const operations = [
      firstLineEdit(fixture.root, 'src/a.ts', aText, '// edited a'),
      firstLineEdit(fixture.root, 'lib/c.ts', cText, '// edited c'),
    ]
    expect(await apply(stack, operations)).toBe('WRITE_FAILED')
    expectUntouched(fixture, before, tree)
    count('applier: immutable folder')
  })

  it('a file where a folder should be (create under a file): a typed error, the edit before it rolled back', async () => {
    const { fixture, stack } = await world()
    const before = treeHashes(fixture.root)
    const tree = listTree(fixture.root)
    const created = nodePath.join(fixture.root, 'src/b.ts/new.ts')
    const code = await apply(stack, [
      firstLineEdit(fixture.root, 'src/a.ts', aText, '// edited a'),
      { type: 'create', uri: pathToUri(created), path: created },
    ])
    expect(['WRITE_FAILED', 'INVALID_ARGUMENT']).toContain(code)
    expectUntouched(fixture, before, tree)
    count('applier: create under a file')
  })

  it('a rename onto a path under a file: a typed error, the edit and the move undone', async () => {
    const { fixture, stack } = await world()
    const before = treeHashes(fixture.root)
    const tree = listTree(fixture.root)
    const from = nodePath.join(fixture.root, 'lib/c.ts')
    const to = nodePath.join(fixture.root, 'src/b.ts/c.ts')
    const code = await apply(stack, [
      firstLineEdit(fixture.root, 'src/a.ts', aText, '// edited a'),
      { type: 'rename', oldUri: pathToUri(from), oldPath: from, newUri: pathToUri(to), newPath: to },
    ])
    expect(['WRITE_FAILED', 'INVALID_ARGUMENT']).toContain(code)
    expectUntouched(fixture, before, tree)
    count('applier: rename under a file')
  })

  it.skipIf(!canLock)(
    'code_rename through the real TypeScript server with one of its three files immutable: WRITE_FAILED, nothing renamed; then it goes through',
    async () => {
      const { fixture, stack } = await world({ mutations: { autoApprove: true } })
      const before = treeHashes(fixture.root)
      const tree = listTree(fixture.root)
      const args = { target: { path: 'src/a.ts', symbol: 'greet' }, newName: 'welcome' }
      lock(nodePath.join(fixture.root, 'lib/c.ts'))
      const failed = await stack.call('code_rename', args)
      expect(failed.ok ? 'ok' : failed.error.code).toBe('WRITE_FAILED')
      expectUntouched(fixture, before, tree)
      unlock(nodePath.join(fixture.root, 'lib/c.ts'))
      const succeeded = await stack.call('code_rename', args)
      expect(succeeded.ok, succeeded.text).toBe(true)
      for (const relative of Object.keys(original)) {
        const text = readFileSync(nodePath.join(fixture.root, relative), 'utf8')
        expect(text, relative).toContain('welcome')
        expect(text, relative).not.toMatch(/\bgreet\b/)
      }
      count('tool: code_rename with an immutable file')
    },
  )

  it('a file replaced by a folder while the rename waits for approval: a typed error, nothing written', async () => {
    let fixtureRoot = ''
    const { fixture, stack } = await world({
      mutations: {
        approve: () => {
          // The injected failure: between preview and apply, src/b.ts stops being a file.
          rmSync(nodePath.join(fixtureRoot, 'src/b.ts'))
          mkdirSync(nodePath.join(fixtureRoot, 'src/b.ts'))
          return 'approve'
        },
      },
    })
    fixtureRoot = fixture.root
    const outcome = await stack.call('code_rename', { target: { path: 'src/a.ts', symbol: 'greet' }, newName: 'welcome' })
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) expect(['STALE_VERSION', 'WRITE_FAILED', 'NOT_FOUND']).toContain(outcome.error.code)
    expect(readFileSync(nodePath.join(fixture.root, 'src/a.ts'), 'utf8')).toBe(aText)
    expect(readFileSync(nodePath.join(fixture.root, 'lib/c.ts'), 'utf8')).toBe(cText)
    expect(listTree(nodePath.join(fixture.root, 'src/b.ts')), 'nothing written into the folder').toEqual([])
    count('tool: file became a folder during approval')
  })
})
