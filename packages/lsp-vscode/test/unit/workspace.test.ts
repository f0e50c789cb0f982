import { mkdir, readFile, readdir, symlink } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { contentHash, createLsp, type LspWorkspaceEdit } from '@codeseam/lsp'
import * as vscode from 'vscode'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'

import { createVsCodeWorkspace, languageExtensions, registerVsCode } from '../../src/index.js'
import { host } from '../fake-vscode/host.js'
import { failure } from './failure.js'
import { answer, openWindow, type TestWindow } from './window.js'

const original = 'export const one = 1\nexport const two = 2\n'

let window: TestWindow

beforeEach(async () => {
  window = await openWindow(
    { 'src/a.ts': original, 'src/b.ts': 'export const bee = 1\n', 'notes.md': '# notes\n' },
    { 'lib/c.ts': 'export const sea = 3\n' },
  )
})

afterEach(async () => {
  await window.dispose()
})

/** An edit replacing the first `needle` in `path` (as its buffer or file reads now) with `newText`. */
function replaceEdit(path: string, version: number | null, needle: string, newText: string): LspWorkspaceEdit {
  const range = { start: window.at(path, needle), end: window.at(path, needle, needle.length) }
  return { operations: [{ type: 'edit', path, uri: vscode.Uri.file(path).toString(), version, edits: [{ range, newText }] }] }
}

describe('reading', () => {
  test('an open buffer is read as it is in memory, with its version; a closed file from disk', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const a = window.path('src/a.ts')
    const document = host.openDocument(vscode.Uri.file(a))
    document.setText('export const one = 100\n')
    expect(await workspace.readFile('src/a.ts')).toMatchObject({
      path: a,
      text: 'export const one = 100\n',
      version: 2,
      hash: contentHash('export const one = 100\n'),
    })
    const b = await workspace.readFile(window.path('src/b.ts'))
    expect(b.text).toBe('export const bee = 1\n')
    expect(b.version).toBeUndefined()
  })

  test('missing files are NOT_FOUND; traversal and symlinks out of the root are OUTSIDE_WORKSPACE', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    expect((await failure(workspace.readFile('src/none.ts'))).code).toBe('NOT_FOUND')
    expect((await failure(workspace.readFile('../folder1/lib/c.ts'))).code).toBe('OUTSIDE_WORKSPACE')
    await symlink(window.path('lib/c.ts', 1), window.path('src/link.ts'))
    expect((await failure(workspace.readFile('src/link.ts'))).code).toBe('OUTSIDE_WORKSPACE')
    expect(await workspace.exists('src/link.ts')).toBe(false)
    expect(await workspace.exists('src/a.ts')).toBe(true)
    expect(await workspace.exists('src/none.ts')).toBe(false)
  })
})

describe('applying edits', () => {
  test('text edits go through workspace.applyEdit into the buffer, which is then saved to disk', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const a = window.path('src/a.ts')
    const result = await workspace.applyEdit(replaceEdit(a, null, 'one', 'uno'), { expectedHashes: { [a]: contentHash(original) } })
    const expected = original.replace('one', 'uno')
    expect(await readFile(a, 'utf8')).toBe(expected)
    expect(host.documents.get(vscode.Uri.file(a).toString())?.isDirty).toBe(false)
    expect(result.files).toEqual([
      { path: a, hashBefore: contentHash(original), hashAfter: contentHash(expected), editCount: 1, saved: true },
    ])
  })

  test('file create, rename and delete are applied and reported', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const created = window.path('src/new.ts')
    const b = window.path('src/b.ts')
    const moved = window.path('src/moved/b.ts')
    const result = await workspace.applyEdit({
      operations: [
        { type: 'create', path: created, uri: vscode.Uri.file(created).toString() },
        {
          type: 'edit',
          path: created,
          uri: vscode.Uri.file(created).toString(),
          version: null,
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'export {}\n' }],
        },
        { type: 'rename', oldPath: b, oldUri: vscode.Uri.file(b).toString(), newPath: moved, newUri: vscode.Uri.file(moved).toString() },
        { type: 'delete', path: window.path('notes.md'), uri: vscode.Uri.file(window.path('notes.md')).toString() },
      ],
    })
    expect(await readFile(created, 'utf8')).toBe('export {}\n')
    expect(await readFile(moved, 'utf8')).toBe('export const bee = 1\n')
    expect(await workspace.exists('src/b.ts')).toBe(false)
    expect(await workspace.exists('notes.md')).toBe(false)
    expect(result.resourceOperations).toEqual([
      { type: 'create', path: created },
      { type: 'rename', path: b, newPath: moved },
      { type: 'delete', path: window.path('notes.md') },
    ])
    expect(result.files.find((f) => f.path === created)).toMatchObject({ editCount: 1, saved: true, hashAfter: contentHash('export {}\n') })
  })

  test('snippet edits are applied without their placeholders', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const a = window.path('src/a.ts')
    const edit = replaceEdit(a, null, 'one', '${1:uno}$0')
    const snippet: LspWorkspaceEdit = {
      operations: edit.operations.map((op) => (op.type === 'edit' ? { ...op, edits: op.edits.map((e) => ({ ...e, snippet: true })) } : op)),
    }
    await workspace.applyEdit(snippet)
    expect(await readFile(a, 'utf8')).toBe(original.replace('one', 'uno'))
  })

  test('a changed hash or buffer version is STALE_VERSION and nothing is written', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const a = window.path('src/a.ts')
    expect(
      (await failure(workspace.applyEdit(replaceEdit(a, null, 'one', 'uno'), { expectedHashes: { [a]: contentHash('something else') } })))
        .code,
    ).toBe('STALE_VERSION')
    host.openDocument(vscode.Uri.file(a)).setText(original)
    expect((await failure(workspace.applyEdit(replaceEdit(a, 1, 'one', 'uno')))).code).toBe('STALE_VERSION')
    expect(await readFile(a, 'utf8')).toBe(original)
  })

  test('an edit reaching outside the root is OUTSIDE_WORKSPACE and nothing is applied', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const a = window.path('src/a.ts')
    const c = window.path('lib/c.ts', 1)
    const edit: LspWorkspaceEdit = {
      operations: [...replaceEdit(a, null, 'one', 'uno').operations, ...replaceEdit(c, null, 'sea', 'x').operations],
    }
    expect((await failure(workspace.applyEdit(edit))).code).toBe('OUTSIDE_WORKSPACE')
    expect(await readFile(a, 'utf8')).toBe(original)
  })

  test('creating or renaming into a folder that is a symlink out of the root is OUTSIDE_WORKSPACE, and nothing is written there', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const outside = window.path('out', 1)
    await mkdir(outside)
    await symlink(outside, window.path('link'))
    const b = window.path('src/b.ts')
    const edits: LspWorkspaceEdit[] = [window.path('link/new.ts'), window.path('link/deeper/new.ts')].map((path) => ({
      operations: [
        { type: 'create', path, uri: vscode.Uri.file(path).toString() },
        {
          type: 'edit',
          path,
          uri: vscode.Uri.file(path).toString(),
          version: null,
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'leak\n' }],
        },
      ],
    }))
    const moved = window.path('link/b.ts')
    edits.push({
      operations: [
        { type: 'rename', oldPath: b, oldUri: vscode.Uri.file(b).toString(), newPath: moved, newUri: vscode.Uri.file(moved).toString() },
      ],
    })
    for (const edit of edits) expect((await failure(workspace.applyEdit(edit))).code).toBe('OUTSIDE_WORKSPACE')
    expect(await readdir(outside)).toEqual([])
    expect(await readFile(b, 'utf8')).toBe('export const bee = 1\n')
  })

  test('VS Code refusing the edit is WRITE_FAILED', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const a = window.path('src/a.ts')
    const edit: LspWorkspaceEdit = { operations: [{ type: 'create', path: a, uri: vscode.Uri.file(a).toString() }] }
    expect((await failure(workspace.applyEdit(edit))).code).toBe('WRITE_FAILED')
  })

  test('a failed save is UNCERTAIN: the change is in the buffer, not on disk', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root })
    const a = window.path('src/a.ts')
    host.failingSaves.add(a)
    const error = await failure(workspace.applyEdit(replaceEdit(a, null, 'one', 'uno')))
    expect(error.code).toBe('UNCERTAIN')
    expect((error.data.result as { files: Array<{ saved: boolean }> }).files[0]?.saved).toBe(false)
    expect(host.documents.get(vscode.Uri.file(a).toString())?.getText()).toBe(original.replace('one', 'uno'))
    expect(await readFile(a, 'utf8')).toBe(original)
  })

  test('applyEdit or save outliving the budget is UNCERTAIN (VS Code commands cannot be cancelled)', async () => {
    const workspace = createVsCodeWorkspace({ root: window.root, timeoutMs: 150 })
    const a = window.path('src/a.ts')
    host.applyEditGate = new Promise(() => {})
    expect((await failure(workspace.applyEdit(replaceEdit(a, null, 'one', 'uno')))).code).toBe('UNCERTAIN')
    host.applyEditGate = undefined
    host.saveGate = new Promise(() => {})
    expect((await failure(workspace.applyEdit(replaceEdit(a, null, 'one', 'uno')))).code).toBe('UNCERTAIN')
  })
})

describe('languages and folders', () => {
  test('the extension map comes from contributed languages, filtered and overridden by configuration', () => {
    host.extensions = [
      {
        id: 'vscode.typescript',
        packageJSON: {
          contributes: {
            languages: [
              { id: 'typescript', extensions: ['.ts', '.mts'] },
              { id: 'typescriptreact', extensions: ['.tsx'] },
            ],
          },
        },
      },
      { id: 'vscode.markdown', packageJSON: { contributes: { languages: [{ id: 'markdown', extensions: ['.md', '.markdown'] }] } } },
      { id: 'other.ts-clone', packageJSON: { contributes: { languages: [{ id: 'not-typescript', extensions: ['.ts'] }] } } },
    ]
    expect(languageExtensions()).toEqual({
      '.ts': 'typescript',
      '.mts': 'typescript',
      '.tsx': 'typescriptreact',
      '.md': 'markdown',
      '.markdown': 'markdown',
    })
    expect(languageExtensions({ languages: ['typescript'], extensions: { MTS: 'special' } })).toEqual({
      '.ts': 'typescript',
      '.mts': 'special',
    })
  })

  test('registerVsCode opens one workspace per folder, follows folder changes, and routes queries by root', async () => {
    const lsp = createLsp()
    const registration = registerVsCode(lsp, { languages: ['typescript'], warmupWaitMs: 0 })
    expect(lsp.workspaces().map((w) => w.root)).toEqual(window.roots)
    answer('vscode.executeWorkspaceSymbolProvider', (q: string) =>
      [window.path('src/a.ts'), window.path('lib/c.ts', 1)].map(
        (p) =>
          new vscode.SymbolInformation(
            q,
            vscode.SymbolKind.Constant,
            '',
            new vscode.Location(vscode.Uri.file(p), new vscode.Range(0, 0, 0, 1)),
          ),
      ),
    )
    const first = await lsp.query({ operation: 'workspaceSymbols', root: window.roots[0]!, query: 'one' })
    expect(first.symbols.map((s) => s.location.path)).toEqual([window.path('src/a.ts')])
    const second = await lsp.query({ operation: 'workspaceSymbols', root: window.roots[1]!, query: 'sea' })
    expect(second.symbols.map((s) => s.location.path)).toEqual([window.path('lib/c.ts', 1)])

    // A second folder with the same name gets its own id; a removed folder's workspace closes.
    const twin = nodePath.join(window.roots[1]!, 'folder0')
    await mkdir(twin)
    host.setFolders([window.roots[0]!, twin])
    await registration.synced()
    expect(registration.workspaces().map((w) => w.id)).toEqual(['folder0', 'folder0-2'])
    expect(lsp.workspace(window.roots[1]!)).toBeUndefined()
    await registration.dispose()
    expect(lsp.workspaces()).toEqual([])
    expect(lsp.providers()).toEqual([])
    await lsp.dispose()
  })
})

describe('a workspace folder opened through a symbolic link', () => {
  test('is served under its real path: queries are not refused, and answers in the linked folder are kept', async () => {
    const alias = nodePath.join(nodePath.dirname(window.root), 'alias')
    await symlink(window.root, alias)
    host.setFolders([alias])
    const lsp = createLsp()
    const registration = registerVsCode(lsp, { languages: ['typescript'], warmupWaitMs: 0 })
    await registration.synced()
    expect(lsp.workspaces().map((w) => w.root)).toEqual([window.root])
    // VS Code names files by the folder it opened: the link.
    const linked = nodePath.join(alias, 'src/a.ts')
    answer('vscode.executeWorkspaceSymbolProvider', (q: string) => [
      new vscode.SymbolInformation(
        q,
        vscode.SymbolKind.Constant,
        '',
        new vscode.Location(vscode.Uri.file(linked), new vscode.Range(0, 0, 0, 1)),
      ),
    ])
    const result = await lsp.query({ operation: 'workspaceSymbols', root: window.root, query: 'one' })
    expect(result.symbols.map((s) => s.location.path)).toEqual([window.path('src/a.ts')])
    expect(result.meta.droppedOutsideWorkspace).toBeUndefined()
    answer('vscode.executeDefinitionProvider', () => [
      new vscode.Location(vscode.Uri.file(linked), window.rangeOf(window.path('src/a.ts'), 'one')),
    ])
    const a = window.path('src/a.ts')
    const definition = await lsp.query({ operation: 'definition', root: window.root, path: 'src/a.ts', position: window.at(a, 'one') })
    expect(definition.locations.map((l) => [l.path, l.range.start])).toEqual([[a, window.at(a, 'one')]])
    await registration.dispose()
    await lsp.dispose()
  })
})
