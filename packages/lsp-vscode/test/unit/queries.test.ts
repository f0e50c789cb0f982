import { symlink, writeFile } from 'node:fs/promises'
import * as nodePath from 'node:path'

import { contentHash, createLsp, type LspProviderRequest, type LspQueryRequest, type LspResultFor } from '@codeseam/lsp'
import * as vscode from 'vscode'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'

import { createVsCodeProvider, type VsCodeProvider, type VsCodeProviderOptions } from '../../src/index.js'
import { host } from '../fake-vscode/host.js'
import { failure } from './failure.js'
import { answer, openWindow, type TestWindow } from './window.js'

const files = {
  'src/a.ts': 'export function alpha(x: number): number {\n  return x\n}\nexport const beta = alpha(1)\n',
  'src/b.ts': "import { alpha } from './a'\nexport function caller(): number {\n  return alpha(2)\n}\n",
}

let window: TestWindow
let provider: VsCodeProvider
const providers: VsCodeProvider[] = []

function makeProvider(options: VsCodeProviderOptions = {}): VsCodeProvider {
  const made = createVsCodeProvider({ languages: ['typescript'], ...options })
  providers.push(made)
  return made
}

beforeEach(async () => {
  window = await openWindow(files)
  provider = makeProvider({ warmupWaitMs: 0 })
})

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.dispose?.()))
  await window.dispose()
})

function query<R extends LspQueryRequest>(
  request: R,
  on: VsCodeProvider = provider,
  signal = new AbortController().signal,
): Promise<LspResultFor<R['operation']>> {
  return on.query({ ...request, languageId: 'typescript' } as LspProviderRequest<R>, signal)
}

describe('documents', () => {
  test('the document is opened before the query, so the owning extension activates', async () => {
    const a = window.path('src/a.ts')
    const openAtQueryTime: boolean[] = []
    answer('vscode.executeDefinitionProvider', (uri: vscode.Uri) => {
      openAtQueryTime.push(vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()))
      return [new vscode.Location(uri, window.rangeOf(a, 'alpha'))]
    })
    await query({ operation: 'definition', root: window.root, path: a, position: window.at(a, 'beta') })
    expect(openAtQueryTime).toEqual([true])
  })

  test('a dirty buffer is queried as it is in memory, and the result names its version and hash', async () => {
    const a = window.path('src/a.ts')
    const document = host.openDocument(vscode.Uri.file(a))
    document.setText(`${document.getText()}export const unsaved = beta\n`)
    answer('vscode.executeDefinitionProvider', (uri: vscode.Uri) => [new vscode.Location(uri, window.rangeOf(a, 'beta'))])
    const result = await query({
      operation: 'definition',
      root: window.root,
      path: a,
      position: window.at(a, 'unsaved = beta', 'unsaved = '.length),
    })
    expect(document.isDirty).toBe(true)
    expect(result.meta.documentVersion).toBe(2)
    expect(result.meta.contentHash).toBe(contentHash(document.getText()))
    expect(result.meta.stale).toBeUndefined()
  })

  test('a position past the end of the buffer is INVALID_ARGUMENT, not an empty answer', async () => {
    const a = window.path('src/a.ts')
    const error = await failure(query({ operation: 'hover', root: window.root, path: a, position: { line: 1, character: 400 } }))
    expect(error.code).toBe('INVALID_ARGUMENT')
  })

  test('a missing file is NOT_FOUND', async () => {
    const error = await failure(
      query({ operation: 'hover', root: window.root, path: window.path('src/none.ts'), position: { line: 0, character: 0 } }),
    )
    expect(error.code).toBe('NOT_FOUND')
  })

  test('a buffer edited while the query runs makes the answer stale', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeReferenceProvider', (uri: vscode.Uri) => {
      host.openDocument(uri).setText('// changed meanwhile\n')
      return [new vscode.Location(uri, new vscode.Range(0, 0, 0, 1))]
    })
    const result = await query({ operation: 'references', root: window.root, path: a, position: window.at(a, 'alpha') })
    expect(result.meta).toMatchObject({ documentVersion: 1, stale: true })
  })
})

describe('deadlines and warm-up', () => {
  test('a command that never answers fails with TIMEOUT within the operation budget', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeHoverProvider', () => new Promise(() => {}))
    const quick = makeProvider({ timeoutMs: 200 })
    const error = await failure(query({ operation: 'hover', root: window.root, path: a, position: window.at(a, 'alpha') }, quick))
    expect(error.code).toBe('TIMEOUT')
  })

  test('the first query of a language waits until its extension has analysed the document (shown, diagnostics settled)', async () => {
    const a = window.path('src/a.ts')
    const warming = makeProvider({ warmupWaitMs: 30_000 })
    let projectLoaded = false
    // Like VS Code's TypeScript: a shown document gets an empty syntax round, then semantics once loaded.
    window.whileOpen(
      host.onDidShowTextDocument.event((document) => {
        host.setDiagnostics(document.uri, [])
        setImmediate(() => {
          projectLoaded = true
          host.setDiagnostics(document.uri, [new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'semantic')])
        })
      }),
    )
    // Until then it answers from a partial server: here, nothing.
    const calls = answer('vscode.executeDefinitionProvider', (uri: vscode.Uri) =>
      projectLoaded ? [new vscode.Location(uri, window.rangeOf(a, 'alpha'))] : [],
    )
    const result = await query({ operation: 'definition', root: window.root, path: a, position: window.at(a, 'beta') }, warming)
    expect(calls).toHaveLength(1)
    expect(host.tabs.map((d) => d.uri.fsPath)).toEqual([a])
    expect(result.locations).toHaveLength(1)
    expect(result.meta.warm).toBe(false)
  })

  test('an empty answer from a cold language is retried once, after diagnostics for the document arrive', async () => {
    const a = window.path('src/a.ts')
    const b = window.path('src/b.ts')
    // Every wait outlasts the 30 s budget: only the diagnostics event can end the retry's wait in time.
    const warming = makeProvider({ warmupWaitMs: 600_000 }) // this extension publishes nothing on show
    // The language's one warm-up runs (for b) and ends without a report: cancelled once it listens.
    const cancel = new AbortController()
    void host.onDidChangeDiagnostics.subscribed().then(() => cancel.abort())
    const cancelled = await failure(
      query({ operation: 'definition', root: window.root, path: b, position: window.at(b, 'alpha(2)') }, warming, cancel.signal),
    )
    expect(cancelled.code).toBe('CANCELLED')

    let reported = false
    let calls = 0
    answer('vscode.executeDefinitionProvider', (uri: vscode.Uri) => {
      calls++
      if (calls === 1) {
        // The extension reports once the adapter listens for it; until then it answers from a cold project.
        void host.onDidChangeDiagnostics.subscribed().then(() => {
          reported = true
          host.setDiagnostics(uri, [])
        })
        return []
      }
      return reported ? [new vscode.Location(uri, window.rangeOf(a, 'alpha'))] : []
    })
    const result = await query({ operation: 'definition', root: window.root, path: a, position: window.at(a, 'beta') }, warming)
    expect(calls).toBe(2)
    expect(result.locations).toHaveLength(1)
    expect(result.meta).toMatchObject({ warm: false, status: 'ready' })
  })

  test('a non-empty answer is never retried, and once warm an empty answer is believed', async () => {
    const a = window.path('src/a.ts')
    const calls = answer('vscode.executeDefinitionProvider', (uri: vscode.Uri, position: vscode.Position) =>
      position.line === 3 ? [new vscode.Location(uri, window.rangeOf(a, 'alpha'))] : [],
    )
    await query({ operation: 'definition', root: window.root, path: a, position: window.at(a, 'beta') })
    expect(calls).toHaveLength(1)
    const empty = await query({ operation: 'definition', root: window.root, path: a, position: window.at(a, 'return') })
    expect(calls).toHaveLength(2)
    expect(empty.locations).toEqual([])
    expect(empty.meta).toMatchObject({ warm: true, status: 'ready' })
  })

  test('warm-up waits and the retry share the one budget: running out ends in TIMEOUT, not an empty answer', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeDefinitionProvider', () => [])
    for (const warmupWaitMs of [60_000, 100]) {
      const tight = makeProvider({ timeoutMs: 150, warmupWaitMs })
      const error = await failure(query({ operation: 'definition', root: window.root, path: a, position: window.at(a, 'beta') }, tight))
      expect(error.code).toBe('TIMEOUT')
    }
  })

  test('an already-aborted request fails with CANCELLED and runs nothing', async () => {
    const a = window.path('src/a.ts')
    const calls = answer('vscode.executeHoverProvider', () => [])
    const controller = new AbortController()
    controller.abort()
    const error = await failure(
      query({ operation: 'hover', root: window.root, path: a, position: window.at(a, 'alpha') }, provider, controller.signal),
    )
    expect(error.code).toBe('CANCELLED')
    expect(calls).toHaveLength(0)
  })

  test('aborting during a command fails with CANCELLED', async () => {
    const a = window.path('src/a.ts')
    const controller = new AbortController()
    answer('vscode.executeHoverProvider', () => {
      controller.abort()
      return new Promise(() => {})
    })
    const error = await failure(
      query({ operation: 'hover', root: window.root, path: a, position: window.at(a, 'alpha') }, provider, controller.signal),
    )
    expect(error.code).toBe('CANCELLED')
  })

  test('an extension that throws is SERVER_ERROR, never an empty result', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeReferenceProvider', () => {
      throw new Error('tsserver crashed')
    })
    const error = await failure(query({ operation: 'references', root: window.root, path: a, position: window.at(a, 'alpha') }))
    expect(error.code).toBe('SERVER_ERROR')
    expect(error.message).toContain('tsserver crashed')
  })
})

describe('diagnostics', () => {
  test('the document is shown in an editor tab first (VS Code TypeScript only analyses shown documents), unless turned off', async () => {
    const a = window.path('src/a.ts')
    const b = window.path('src/b.ts')
    await query({ operation: 'diagnostics', root: window.root, path: a, waitMs: 0 })
    expect(host.tabs.map((d) => d.uri.fsPath)).toEqual([a])
    const quiet = makeProvider({ revealForDiagnostics: false })
    await query({ operation: 'diagnostics', root: window.root, path: b, waitMs: 0 }, quiet)
    expect(host.tabs.map((d) => d.uri.fsPath)).toEqual([a])
  })
})

describe('roots', () => {
  test('a root that is not a folder open in VS Code is UNAVAILABLE', async () => {
    const error = await failure(query({ operation: 'workspaceSymbols', root: '/somewhere/else', query: 'alpha' }))
    expect(error.code).toBe('UNAVAILABLE')
  })

  test('a request path that is a symbolic link to a file outside the root is OUTSIDE_WORKSPACE, and the file is never opened', async () => {
    const secret = nodePath.join(nodePath.dirname(window.root), 'secret.ts')
    await writeFile(secret, 'export const secret = 42\n')
    await symlink(secret, window.path('src/link.ts'))
    const calls = answer('vscode.executeDocumentSymbolProvider', () => [])
    for (const path of [window.path('src/link.ts'), 'src/link.ts']) {
      const error = await failure(query({ operation: 'documentSymbols', root: window.root, path }))
      expect(error.code).toBe('OUTSIDE_WORKSPACE')
    }
    expect(calls).toEqual([])
    expect([...host.documents.values()].map((d) => d.uri.fsPath)).toEqual([])
  })
})

describe('hierarchy', () => {
  const item = (uri: vscode.Uri, name: string, range: vscode.Range) =>
    new vscode.CallHierarchyItem(vscode.SymbolKind.Function, name, '', uri, range, range)

  test('follow-ups receive the very item VS Code prepared, and ids are stable across calls', async () => {
    const a = window.path('src/a.ts')
    const b = window.path('src/b.ts')
    const alpha = item(vscode.Uri.file(a), 'alpha', window.rangeOf(a, 'alpha'))
    answer('vscode.prepareCallHierarchy', () => [alpha])
    const received: unknown[] = []
    answer('vscode.provideIncomingCalls', (given: unknown) => {
      received.push(given)
      return [
        new vscode.CallHierarchyIncomingCall(item(vscode.Uri.file(b), 'caller', window.rangeOf(b, 'caller')), [
          window.rangeOf(b, 'alpha(2)'),
        ]),
      ]
    })
    const first = await query({ operation: 'prepareCallHierarchy', root: window.root, path: a, position: window.at(a, 'alpha') })
    const second = await query({ operation: 'prepareCallHierarchy', root: window.root, path: a, position: window.at(a, 'alpha') })
    expect(first.items[0]?.id).toBe(second.items[0]?.id)
    const incoming = await query({ operation: 'incomingCalls', root: window.root, item: first.items[0]! })
    expect(received[0]).toBe(alpha)
    expect(incoming.calls[0]).toMatchObject({
      item: { name: 'caller', kind: 'function', path: b },
      fromRanges: [{ start: window.at(b, 'alpha(2)') }],
    })
  })

  test('an item this session never saw is prepared again at its selection and matched by id', async () => {
    const a = window.path('src/a.ts')
    const prepared = answer('vscode.prepareCallHierarchy', (uri: vscode.Uri) => [item(uri, 'alpha', window.rangeOf(a, 'alpha'))])
    answer('vscode.provideOutgoingCalls', () => [])
    const [seamItem] = (await query({ operation: 'prepareCallHierarchy', root: window.root, path: a, position: window.at(a, 'alpha') }))
      .items
    const other = makeProvider({ warmupWaitMs: 0 })
    const outgoing = await query({ operation: 'outgoingCalls', root: window.root, item: seamItem! }, other)
    expect(prepared).toHaveLength(2)
    expect(outgoing.calls).toEqual([])
  })

  test('type hierarchy items cannot continue a call hierarchy', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.prepareTypeHierarchy', (uri: vscode.Uri) => [
      new vscode.TypeHierarchyItem(vscode.SymbolKind.Class, 'T', '', uri, window.rangeOf(a, 'alpha'), window.rangeOf(a, 'alpha')),
    ])
    const [typeItem] = (await query({ operation: 'prepareTypeHierarchy', root: window.root, path: a, position: window.at(a, 'alpha') }))
      .items
    const error = await failure(query({ operation: 'incomingCalls', root: window.root, item: typeItem! }))
    expect(error.code).toBe('INVALID_ARGUMENT')
  })
})

describe('code actions and rename preflight', () => {
  const organize = (uri: vscode.Uri, withEdit: boolean) => {
    const action = new vscode.CodeAction('Organize Imports', vscode.CodeActionKind.SourceOrganizeImports)
    if (withEdit) {
      action.edit = new vscode.WorkspaceEdit()
      action.edit.replace(uri, new vscode.Range(0, 0, 0, 0), '// sorted\n')
    }
    return action
  }

  test('several `only` kinds are filtered here, a bare Command is listed, and resolving returns the edit without writing', async () => {
    const b = window.path('src/b.ts')
    const calls = answer(
      'vscode.executeCodeActionProvider',
      (uri: vscode.Uri, _range: vscode.Range, _kind: unknown, resolveCount: number) => [
        organize(uri, resolveCount > 0),
        new vscode.CodeAction('Extract function', vscode.CodeActionKind.RefactorExtract),
        { title: 'Run linter', command: 'eslint.run', arguments: [] },
      ],
    )
    const range = { start: window.at(b, 'import'), end: window.at(b, 'import') }
    const listed = await query({ operation: 'codeActions', root: window.root, path: b, range, only: ['source', 'quickfix'] })
    expect(calls[0]?.[2]).toBeUndefined()
    expect(listed.actions.map((a) => [a.title, a.kind, a.hasEdit])).toEqual([['Organize Imports', 'source.organizeImports', true]])
    const all = await query({ operation: 'codeActions', root: window.root, path: b, range })
    expect(all.actions.map((a) => [a.title, a.hasCommand])).toEqual([
      ['Organize Imports', false],
      ['Extract function', false],
      ['Run linter', true],
    ])
    const resolved = await query({ operation: 'resolveCodeAction', root: window.root, path: b, actionId: listed.actions[0]!.id })
    expect(resolved.edit.operations[0]).toMatchObject({ type: 'edit', path: b, edits: [{ newText: '// sorted\n' }] })
    expect(host.documents.get(vscode.Uri.file(b).toString())?.isDirty).toBe(false)
    const command = await failure(query({ operation: 'resolveCodeAction', root: window.root, path: b, actionId: all.actions[2]!.id }))
    expect(command.code).toBe('UNSUPPORTED_OPERATION')
  })

  test('an action listed for an older buffer version is STALE_VERSION', async () => {
    const b = window.path('src/b.ts')
    answer('vscode.executeCodeActionProvider', (uri: vscode.Uri) => [organize(uri, true)])
    const range = { start: window.at(b, 'import'), end: window.at(b, 'import') }
    const listed = await query({ operation: 'codeActions', root: window.root, path: b, range })
    const document = host.openDocument(vscode.Uri.file(b))
    document.setText(`${document.getText()}// typed\n`)
    const error = await failure(query({ operation: 'resolveCodeAction', root: window.root, path: b, actionId: listed.actions[0]!.id }))
    expect(error.code).toBe('STALE_VERSION')
  })

  test('an action VS Code did not resolve while listing is resolved on demand', async () => {
    const b = window.path('src/b.ts')
    const calls = answer('vscode.executeCodeActionProvider', (uri: vscode.Uri, _range: unknown, _kind: unknown, resolveCount: number) => [
      organize(uri, resolveCount > 0),
    ])
    const lazy = makeProvider({ warmupWaitMs: 0, codeActionResolveCount: 0 })
    const range = { start: window.at(b, 'import'), end: window.at(b, 'import') }
    const listed = await query({ operation: 'codeActions', root: window.root, path: b, range }, lazy)
    expect(listed.actions[0]?.hasEdit).toBe(false)
    const resolved = await query({ operation: 'resolveCodeAction', root: window.root, path: b, actionId: listed.actions[0]!.id }, lazy)
    expect(calls.map((c) => c[3])).toEqual([0, 1])
    expect(resolved.edit.operations).toHaveLength(1)
  })

  test("a new name that is no TypeScript identifier is refused by the seam's language facts before VS Code is asked", async () => {
    const a = window.path('src/a.ts')
    let asked = 0
    answer('vscode.executeDocumentRenameProvider', () => {
      asked += 1
      return undefined
    })
    const lsp = createLsp()
    lsp.registerProvider(provider)
    const error = await failure(
      lsp.query({ operation: 'rename', root: window.root, path: a, position: window.at(a, 'alpha'), newName: 'two words' }),
    )
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.message).toMatch(/TypeScript\/JavaScript identifier/)
    expect(asked).toBe(0)
  })

  test("prepareRename: VS Code's thrown refusal is canRename false with the provider's words", async () => {
    const a = window.path('src/a.ts')
    answer('vscode.prepareRename', (_uri: vscode.Uri, position: vscode.Position) => {
      if (position.character === 0) throw new Error('You cannot rename this element.')
      return { range: window.rangeOf(a, 'alpha'), placeholder: 'alpha' }
    })
    const ok = await query({ operation: 'prepareRename', root: window.root, path: a, position: window.at(a, 'alpha') })
    expect(ok.rename).toEqual({
      canRename: true,
      placeholder: 'alpha',
      range: { start: window.at(a, 'alpha'), end: window.at(a, 'alpha', 5) },
    })
    const refused = await query({ operation: 'prepareRename', root: window.root, path: a, position: { line: 0, character: 0 } })
    expect(refused.rename).toEqual({ canRename: false, reason: 'You cannot rename this element.' })
  })
})
