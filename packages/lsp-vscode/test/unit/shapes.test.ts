import * as nodePath from 'node:path'

import { LspError, type LspProviderRequest, type LspQueryRequest, type LspResultFor } from '@codeseam/lsp'
import * as vscode from 'vscode'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'

import { createVsCodeProvider, type VsCodeProvider } from '../../src/index.js'
import { answer, openWindow, type TestWindow } from './window.js'

const files = {
  'src/a.ts': 'export function alpha(x: number): number {\n  return x\n}\nexport const beta = alpha(1)\n',
  'src/b.ts': "import { alpha } from './a'\nexport class Gamma {\n  delta(): number {\n    return alpha(2)\n  }\n}\n",
}

let window: TestWindow
let provider: VsCodeProvider

beforeEach(async () => {
  window = await openWindow(files)
  provider = createVsCodeProvider({ languages: ['typescript'], warmupWaitMs: 0 })
})

afterEach(async () => {
  await provider.dispose?.()
  await window.dispose()
})

function query<R extends LspQueryRequest>(request: R): Promise<LspResultFor<R['operation']>> {
  return provider.query({ ...request, languageId: 'typescript' } as LspProviderRequest<R>, new AbortController().signal)
}

describe('locations', () => {
  test('Location and LocationLink arrays both normalize, links keep their selection and origin ranges', async () => {
    const a = window.path('src/a.ts')
    const b = window.path('src/b.ts')
    const target = window.rangeOf(a, 'alpha')
    const origin = window.rangeOf(b, 'alpha(2)')
    const declaration = 'export function alpha(x: number): number {\n  return x\n}'
    answer('vscode.executeDefinitionProvider', () => [
      {
        targetUri: vscode.Uri.file(a),
        targetRange: window.rangeOf(a, declaration),
        targetSelectionRange: target,
        originSelectionRange: origin,
      },
      new vscode.Location(vscode.Uri.file(b), window.rangeOf(b, 'Gamma')),
    ])
    const result = await query({ operation: 'definition', root: window.root, path: b, position: window.at(b, 'alpha(2)') })
    expect(result.locations).toEqual([
      {
        path: a,
        uri: vscode.Uri.file(a).toString(),
        range: { start: window.at(a, declaration), end: window.at(a, declaration, declaration.length) },
        targetSelectionRange: { start: window.at(a, 'alpha'), end: window.at(a, 'alpha', 5) },
        originSelectionRange: { start: window.at(b, 'alpha(2)'), end: window.at(b, 'alpha(2)', 'alpha(2)'.length) },
      },
      { path: b, uri: vscode.Uri.file(b).toString(), range: { start: window.at(b, 'Gamma'), end: window.at(b, 'Gamma', 5) } },
    ])
  })

  test('a single Location (not an array) is accepted', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeTypeDefinitionProvider', () => new vscode.Location(vscode.Uri.file(a), window.rangeOf(a, 'alpha')))
    const result = await query({ operation: 'typeDefinition', root: window.root, path: a, position: window.at(a, 'beta') })
    expect(result.locations.map((l) => l.path)).toEqual([a])
  })

  test('places outside the root, in other schemes or in library typings are dropped and counted', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeReferenceProvider', () => [
      new vscode.Location(vscode.Uri.file(a), window.rangeOf(a, 'alpha')),
      new vscode.Location(vscode.Uri.file('/usr/lib/node_modules/typescript/lib/lib.d.ts'), new vscode.Range(0, 0, 0, 1)),
      new vscode.Location(vscode.Uri.parse('untitled:Untitled-1'), new vscode.Range(0, 0, 0, 1)),
      new vscode.Location(vscode.Uri.file(nodePath.join(window.root, '..', 'elsewhere.ts')), new vscode.Range(0, 0, 0, 1)),
    ])
    const result = await query({ operation: 'references', root: window.root, path: a, position: window.at(a, 'alpha') })
    expect(result.locations.map((l) => l.path)).toEqual([a])
    expect(result.meta.droppedOutsideWorkspace).toBe(3)
  })
})

describe('hover and signature help', () => {
  test('MarkdownString, plain MarkedString and code-block parts from several providers merge into markdown', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeHoverProvider', () => [
      new vscode.Hover(
        [new vscode.MarkdownString().appendCodeblock('function alpha(x: number): number', 'typescript'), 'Returns **x**.'],
        window.rangeOf(a, 'alpha'),
      ),
      new vscode.Hover({ language: 'typescript', value: 'const legacy: true' }),
    ])
    const result = await query({ operation: 'hover', root: window.root, path: a, position: window.at(a, 'alpha') })
    expect(result.hover?.format).toBe('markdown')
    expect(result.hover?.contents).toContain('```typescript\nfunction alpha(x: number): number\n```')
    expect(result.hover?.contents).toContain('Returns **x**.')
    expect(result.hover?.contents).toContain('```typescript\nconst legacy: true\n```')
    expect(result.hover?.range).toEqual({ start: window.at(a, 'alpha'), end: window.at(a, 'alpha', 5) })
  })

  test('no hover parts is a null hover', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeHoverProvider', () => [new vscode.Hover([])])
    const result = await query({ operation: 'hover', root: window.root, path: a, position: window.at(a, 'alpha') })
    expect(result.hover).toBeNull()
  })

  test('parameter labels given as [start, end] offsets become their text', async () => {
    const b = window.path('src/b.ts')
    answer('vscode.executeSignatureHelpProvider', () => {
      const help = new vscode.SignatureHelp()
      const signature = new vscode.SignatureInformation('alpha(x: number): number', new vscode.MarkdownString('Doubles *nothing*.'))
      signature.parameters = [new vscode.ParameterInformation([6, 15], 'the input')]
      help.signatures = [signature]
      return help
    })
    const result = await query({ operation: 'signatureHelp', root: window.root, path: b, position: window.at(b, 'alpha(2)', 6) })
    expect(result.signatureHelp?.signatures[0]).toEqual({
      label: 'alpha(x: number): number',
      documentation: 'Doubles *nothing*.',
      parameters: [{ label: 'x: number', documentation: 'the input' }],
    })
  })
})

describe('symbols', () => {
  test('flat SymbolInformation from older extensions is nested by range, with 0-based kinds mapped', async () => {
    const b = window.path('src/b.ts')
    const uri = vscode.Uri.file(b)
    answer('vscode.executeDocumentSymbolProvider', () => [
      new vscode.SymbolInformation('delta', vscode.SymbolKind.Method, 'Gamma', new vscode.Location(uri, new vscode.Range(2, 2, 4, 3))),
      new vscode.SymbolInformation('Gamma', vscode.SymbolKind.Class, '', new vscode.Location(uri, new vscode.Range(1, 0, 5, 1))),
    ])
    const result = await query({ operation: 'documentSymbols', root: window.root, path: b })
    expect(result.symbols.map((s) => [s.name, s.kind, s.children.map((c) => [c.name, c.kind])])).toEqual([
      ['Gamma', 'class', [['delta', 'method']]],
    ])
  })

  test('DocumentSymbol trees keep detail and selection ranges', async () => {
    const b = window.path('src/b.ts')
    answer('vscode.executeDocumentSymbolProvider', () => {
      const gamma = new vscode.DocumentSymbol(
        'Gamma',
        'class detail',
        vscode.SymbolKind.Class,
        new vscode.Range(1, 0, 5, 1),
        window.rangeOf(b, 'Gamma'),
      )
      gamma.children = [
        new vscode.DocumentSymbol('delta', '', vscode.SymbolKind.Method, new vscode.Range(2, 2, 4, 3), window.rangeOf(b, 'delta')),
      ]
      return [gamma]
    })
    const [gamma] = (await query({ operation: 'documentSymbols', root: window.root, path: b })).symbols
    expect(gamma?.detail).toBe('class detail')
    expect(gamma?.selectionRange.start).toEqual(window.at(b, 'Gamma'))
    expect(gamma?.children[0]?.kind).toBe('method')
  })

  test('workspace symbols outside the root are dropped', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeWorkspaceSymbolProvider', (q: string) => [
      new vscode.SymbolInformation(q, vscode.SymbolKind.Function, '', new vscode.Location(vscode.Uri.file(a), window.rangeOf(a, 'alpha'))),
      new vscode.SymbolInformation(
        q,
        vscode.SymbolKind.Function,
        '',
        new vscode.Location(vscode.Uri.file('/elsewhere/x.ts'), new vscode.Range(0, 0, 0, 1)),
      ),
    ])
    const result = await query({ operation: 'workspaceSymbols', root: window.root, query: 'alpha' })
    expect(result.symbols).toHaveLength(1)
    expect(result.symbols[0]).toMatchObject({ name: 'alpha', kind: 'function', location: { path: a } })
    expect(result.meta.droppedOutsideWorkspace).toBe(1)
  })
})

describe('workspace edits', () => {
  test('a rename edit with text edits, file create/rename/delete and change annotations keeps its order', async () => {
    const a = window.path('src/a.ts')
    const b = window.path('src/b.ts')
    answer('vscode.executeDocumentRenameProvider', (_uri: vscode.Uri, _position: vscode.Position, newName: string) => {
      const edit = new vscode.WorkspaceEdit()
      const why = { label: 'Rename alpha', needsConfirmation: true }
      edit.replace(vscode.Uri.file(a), window.rangeOf(a, 'alpha'), newName, why)
      edit.replace(vscode.Uri.file(b), window.rangeOf(b, 'alpha'), newName, why)
      edit.createFile(vscode.Uri.file(window.path('src/new.ts')), { ignoreIfExists: true })
      edit.renameFile(vscode.Uri.file(b), vscode.Uri.file(window.path('src/b2.ts')), { overwrite: false })
      edit.deleteFile(vscode.Uri.file(window.path('src/old.ts')), { ignoreIfNotExists: true })
      return edit
    })
    const result = await query({ operation: 'rename', root: window.root, path: a, position: window.at(a, 'alpha'), newName: 'omega' })
    expect(result.edit.operations.map((op) => op.type)).toEqual(['edit', 'edit', 'create', 'rename', 'delete'])
    const [first] = result.edit.operations
    expect(first).toMatchObject({ type: 'edit', path: a, edits: [{ newText: 'omega', annotationId: 'vscode-0' }] })
    expect(first?.type === 'edit' && first.version).toBe(1) // a.ts is open in VS Code (the query opened it)
    expect(result.edit.operations[1]).toMatchObject({ type: 'edit', path: b, version: null })
    expect(result.edit.operations[2]).toMatchObject({ type: 'create', path: window.path('src/new.ts'), options: { ignoreIfExists: true } })
    expect(result.edit.operations[3]).toMatchObject({ type: 'rename', oldPath: b, newPath: window.path('src/b2.ts') })
    expect(result.edit.operations[4]).toMatchObject({
      type: 'delete',
      path: window.path('src/old.ts'),
      options: { ignoreIfNotExists: true },
    })
    expect(result.edit.annotations).toEqual({ 'vscode-0': { label: 'Rename alpha', needsConfirmation: true } })
  })

  test('snippet edits are flagged as snippets', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeDocumentRenameProvider', () => {
      const edit = new vscode.WorkspaceEdit()
      edit.set(vscode.Uri.file(a), [new vscode.SnippetTextEdit(window.rangeOf(a, 'alpha'), new vscode.SnippetString('${1:omega}'))])
      return edit
    })
    const result = await query({ operation: 'rename', root: window.root, path: a, position: window.at(a, 'alpha'), newName: 'omega' })
    expect(result.edit.operations[0]).toMatchObject({ type: 'edit', edits: [{ newText: '${1:omega}', snippet: true }] })
  })

  test('an edit that touches a file outside the root fails as a whole', async () => {
    const a = window.path('src/a.ts')
    answer('vscode.executeDocumentRenameProvider', () => {
      const edit = new vscode.WorkspaceEdit()
      edit.replace(vscode.Uri.file(a), window.rangeOf(a, 'alpha'), 'omega')
      edit.replace(vscode.Uri.file('/etc/hosts'), new vscode.Range(0, 0, 0, 1), 'x')
      return edit
    })
    const error = await query({ operation: 'rename', root: window.root, path: a, position: window.at(a, 'alpha'), newName: 'omega' }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(LspError)
    expect((error as LspError).code).toBe('OUTSIDE_WORKSPACE')
  })

  test('formatting TextEdits become one document edit against the buffer version', async () => {
    const a = window.path('src/a.ts')
    // The two-space indent before `return`.
    const indent = { start: window.at(a, '  return'), end: window.at(a, '  return', 2) }
    const vsIndent = new vscode.Range(indent.start.line, indent.start.character, indent.end.line, indent.end.character)
    const calls = answer('vscode.executeFormatDocumentProvider', () => [vscode.TextEdit.replace(vsIndent, '    ')])
    const result = await query({ operation: 'format', root: window.root, path: a, options: { tabSize: 4, insertSpaces: true } })
    expect(calls[0]?.[1]).toEqual({ tabSize: 4, insertSpaces: true })
    expect(result.edit.operations).toEqual([
      { type: 'edit', path: a, uri: vscode.Uri.file(a).toString(), version: 1, edits: [{ range: indent, newText: '    ' }] },
    ])
  })
})

describe('completion and inlay hints', () => {
  test('completion labels, snippet insert texts and VS Code kinds normalize', async () => {
    const b = window.path('src/b.ts')
    answer('vscode.executeCompletionItemProvider', () => {
      const plain = new vscode.CompletionItem('alpha', vscode.CompletionItemKind.Function)
      const labelled = new vscode.CompletionItem({ label: 'delta', detail: '()', description: 'Gamma' }, vscode.CompletionItemKind.Method)
      labelled.insertText = new vscode.SnippetString('delta($1)')
      labelled.documentation = new vscode.MarkdownString('Calls **alpha**.')
      const keyword = new vscode.CompletionItem('return', vscode.CompletionItemKind.Keyword)
      return new vscode.CompletionList([plain, labelled, keyword], true)
    })
    const result = await query({ operation: 'completion', root: window.root, path: b, position: window.at(b, 'alpha(2)') })
    expect(result.isIncomplete).toBe(true)
    expect(result.items).toEqual([
      { label: 'alpha', kind: 'function' },
      { label: 'delta', kind: 'method', detail: '() Gamma', documentation: 'Calls **alpha**.', insertText: 'delta($1)' },
      { label: 'return', kind: 'keyword' },
    ])
  })

  test('without a range, inlay hints are asked for the whole document; label parts keep tooltips and locations', async () => {
    const a = window.path('src/a.ts')
    const afterBeta = window.at(a, 'beta', 'beta'.length)
    const calls = answer('vscode.executeInlayHintProvider', () => {
      const part = new vscode.InlayHintLabelPart('number')
      part.tooltip = new vscode.MarkdownString('the type')
      part.location = new vscode.Location(vscode.Uri.file(a), window.rangeOf(a, 'number'))
      const hint = new vscode.InlayHint(
        new vscode.Position(afterBeta.line, afterBeta.character),
        [new vscode.InlayHintLabelPart(': '), part],
        vscode.InlayHintKind.Type,
      )
      hint.paddingLeft = true
      return [hint]
    })
    const result = await query({ operation: 'inlayHints', root: window.root, path: a })
    const range = calls[0]?.[1] as vscode.Range
    const lines = files['src/a.ts'].split('\n')
    expect([range.start.line, range.start.character, range.end.line, range.end.character]).toEqual([
      0,
      0,
      lines.length - 1,
      lines[lines.length - 1]!.length,
    ])
    expect(result.hints).toEqual([
      {
        position: afterBeta,
        kind: 'type',
        paddingLeft: true,
        label: [
          { value: ': ' },
          {
            value: 'number',
            tooltip: 'the type',
            location: {
              path: a,
              uri: vscode.Uri.file(a).toString(),
              range: { start: window.at(a, 'number'), end: window.at(a, 'number', 6) },
            },
          },
        ],
      },
    ])
  })
})

describe('diagnostics', () => {
  test('0-based severities, structured codes, tags and related information normalize', async () => {
    const a = window.path('src/a.ts')
    const uri = vscode.Uri.file(a)
    answer('vscode.executeHoverProvider', () => [])
    const error = new vscode.Diagnostic(window.rangeOf(a, 'beta'), 'bad beta', vscode.DiagnosticSeverity.Error)
    error.code = { value: 2322, target: vscode.Uri.parse('https://typescript.tv/errors/#ts2322') }
    error.source = 'ts'
    error.relatedInformation = [
      new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, window.rangeOf(a, 'alpha')), 'declared here'),
      new vscode.DiagnosticRelatedInformation(
        new vscode.Location(vscode.Uri.file('/outside.ts'), new vscode.Range(0, 0, 0, 1)),
        'elsewhere',
      ),
    ]
    const hint = new vscode.Diagnostic(window.rangeOf(a, 'x'), 'unused', vscode.DiagnosticSeverity.Hint)
    hint.tags = [vscode.DiagnosticTag.Unnecessary]
    const { host } = await import('../fake-vscode/host.js')
    await vscode.workspace.openTextDocument(uri)
    host.setDiagnostics(uri, [error, hint])
    const result = await query({ operation: 'diagnostics', root: window.root, path: a, waitMs: 0 })
    const [file] = result.files
    expect(file?.freshness).toBe('current')
    expect(file?.diagnostics).toEqual([
      {
        range: { start: window.at(a, 'beta'), end: window.at(a, 'beta', 4) },
        severity: 'error',
        message: 'bad beta',
        code: 2322,
        source: 'ts',
        related: [
          {
            location: { path: a, uri: uri.toString(), range: { start: window.at(a, 'alpha'), end: window.at(a, 'alpha', 5) } },
            message: 'declared here',
          },
        ],
      },
      { range: { start: window.at(a, 'x'), end: window.at(a, 'x', 1) }, severity: 'hint', message: 'unused', tags: ['unnecessary'] },
    ])
  })

  test('diagnostics reported in rounds (an empty syntax round, then semantics) are awaited until they settle', async () => {
    const a = window.path('src/a.ts')
    const { host } = await import('../fake-vscode/host.js')
    const semantic = new vscode.Diagnostic(window.rangeOf(a, 'beta'), 'semantic error', vscode.DiagnosticSeverity.Error)
    // Like VS Code's TypeScript: the syntax round (empty) on open, the semantic round right after.
    window.whileOpen(
      host.onDidOpenTextDocument.event((document) => {
        host.setDiagnostics(document.uri, [])
        setImmediate(() => host.setDiagnostics(document.uri, [semantic]))
      }),
    )
    const result = await query({ operation: 'diagnostics', root: window.root, path: a, waitMs: 30_000 })
    expect(result.files[0]?.diagnostics.map((d) => d.message)).toEqual(['semantic error'])
    expect(result.files[0]?.freshness).toBe('current')
  })
})
