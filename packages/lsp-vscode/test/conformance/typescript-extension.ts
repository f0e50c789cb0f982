/**
 * Plays VS Code's TypeScript support inside the fake window, backed by a REAL language server: the built-in
 * `vscode.execute…` commands send protocol requests to the native TypeScript 7 server, and its answers are
 * turned into VS Code objects by vscode-languageclient's own protocol-to-code converter (as every
 * LSP-based VS Code extension does), so LocationLinks, MarkdownStrings, DocumentSymbols, WorkspaceEdits…
 * reach the adapter in the shapes VS Code hands out. Documents are synced from the fake window's buffers,
 * and diagnostics are pulled and published the way the language client does.
 */
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  CodeActionResolveRequest,
  CodeActionRequest,
  CompletionRequest,
  CompletionTriggerKind,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  DocumentDiagnosticRequest,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ImplementationRequest,
  InlayHintRequest,
  PrepareRenameRequest,
  Range as ProtocolRange,
  ReferencesRequest,
  RenameRequest,
  SignatureHelpRequest,
  SignatureHelpTriggerKind,
  TypeDefinitionRequest,
  WorkspaceSymbolRequest,
  type CodeAction as ProtocolCodeAction,
  type Command as ProtocolCommand,
  type DocumentSymbol as ProtocolDocumentSymbol,
} from 'vscode-languageserver-protocol/node'
import * as vscode from 'vscode'

import { host, type FakeTextDocument } from '../fake-vscode/host.js'
import { installFakeVscodeForRequire, requireFromTests } from '../fake-vscode/node-require.js'
import type { NativeTypeScriptServer } from './native-typescript.js'

installFakeVscodeForRequire()

type Converter = ReturnType<typeof import('vscode-languageclient/$test/common/protocolConverter').createConverter>
type CodeConverter = ReturnType<typeof import('vscode-languageclient/$test/common/codeConverter').createConverter>

const p2c: Converter = (
  requireFromTests(
    'vscode-languageclient/$test/common/protocolConverter',
  ) as typeof import('vscode-languageclient/$test/common/protocolConverter')
).createConverter(undefined, false, false, false)
const c2p: CodeConverter = (
  requireFromTests('vscode-languageclient/$test/common/codeConverter') as typeof import('vscode-languageclient/$test/common/codeConverter')
).createConverter(undefined)

const textDocument = (uri: vscode.Uri) => ({ uri: uri.toString() })

/**
 * VS Code's `executeDocumentSymbolProvider` answers objects that are both SymbolInformation and
 * DocumentSymbol (extHostApiCommands' MergedInfo); built from the converter's DocumentSymbols.
 */
function mergedInfo(
  uri: vscode.Uri,
  symbol: vscode.DocumentSymbol,
  container: string | undefined,
): vscode.SymbolInformation & vscode.DocumentSymbol {
  const merged = new vscode.SymbolInformation(
    symbol.name,
    symbol.kind,
    container ?? '',
    new vscode.Location(uri, symbol.range),
  ) as vscode.SymbolInformation & vscode.DocumentSymbol
  Object.assign(merged, { detail: symbol.detail, range: symbol.range, selectionRange: symbol.selectionRange })
  merged.children = symbol.children.map((child) => mergedInfo(uri, child, symbol.name))
  return merged
}

/** Installs the TypeScript "extension" into the fake host; returns a disposer. */
export function activateTypeScriptExtension(server: NativeTypeScriptServer): () => void {
  const { connection } = server
  const subscriptions: Array<{ dispose(): unknown }> = []
  const resultIds = new Map<string, string | undefined>()
  const protocolActions = new WeakMap<object, ProtocolCodeAction>()
  let active = true

  const pullDiagnostics = async (document: FakeTextDocument) => {
    const version = document.version
    try {
      const report = await connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: textDocument(document.uri) })
      if (!active || document.version !== version || report.kind !== 'full') return
      resultIds.set(document.uri.toString(), report.resultId)
      host.setDiagnostics(document.uri as never, await p2c.asDiagnostics(report.items))
    } catch {
      // A closed connection at shutdown; nothing to publish.
    }
  }

  subscriptions.push(
    host.onDidOpenTextDocument.event((document) => {
      void connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: {
          uri: document.uri.toString(),
          languageId: document.languageId,
          version: document.version,
          text: document.getText(),
        },
      })
    }),
    // Like VS Code's TypeScript support: only documents shown in an editor tab are validated.
    host.onDidShowTextDocument.event((document) => void pullDiagnostics(document)),
    host.onDidChangeTextDocument.event(({ document }) => {
      void connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri: document.uri.toString(), version: document.version },
        contentChanges: [{ text: document.getText() }],
      })
      if (host.tabs.includes(document)) void pullDiagnostics(document)
    }),
    host.onDidSaveTextDocument.event((document) => {
      void connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: textDocument(document.uri) })
    }),
    host.onDidCloseTextDocument.event((document) => {
      void connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: textDocument(document.uri) })
    }),
  )

  const at = (uri: vscode.Uri, position: vscode.Position) => ({ textDocument: textDocument(uri), position: c2p.asPosition(position) })
  const asArray = <T>(value: T | readonly T[] | undefined | null): T[] =>
    value === undefined || value === null ? [] : Array.isArray(value) ? [...(value as T[])] : [value as T]

  const handlers: Record<string, (...args: any[]) => Promise<unknown>> = {
    'vscode.executeDefinitionProvider': async (uri, position) =>
      asArray<unknown>(await p2c.asDefinitionResult(await connection.sendRequest(DefinitionRequest.type, at(uri, position)))),
    'vscode.executeTypeDefinitionProvider': async (uri, position) =>
      asArray<unknown>(await p2c.asDefinitionResult(await connection.sendRequest(TypeDefinitionRequest.type, at(uri, position)))),
    'vscode.executeImplementationProvider': async (uri, position) =>
      asArray<unknown>(await p2c.asDefinitionResult(await connection.sendRequest(ImplementationRequest.type, at(uri, position)))),
    'vscode.executeReferenceProvider': async (uri, position) =>
      asArray(
        await p2c.asReferences(
          await connection.sendRequest(ReferencesRequest.type, { ...at(uri, position), context: { includeDeclaration: true } }),
        ),
      ),
    'vscode.executeHoverProvider': async (uri, position) =>
      asArray(p2c.asHover(await connection.sendRequest(HoverRequest.type, at(uri, position)))),
    'vscode.executeSignatureHelpProvider': async (uri, position, triggerCharacter?: string) =>
      p2c.asSignatureHelp(
        await connection.sendRequest(SignatureHelpRequest.type, {
          ...at(uri, position),
          context: {
            triggerKind: triggerCharacter ? SignatureHelpTriggerKind.TriggerCharacter : SignatureHelpTriggerKind.Invoked,
            isRetrigger: false,
            ...(triggerCharacter ? { triggerCharacter } : {}),
          },
        }),
      ),
    'vscode.executeDocumentSymbolProvider': async (uri) => {
      const answer = await connection.sendRequest(DocumentSymbolRequest.type, { textDocument: textDocument(uri) })
      if (!answer || answer.length === 0) return []
      if ('selectionRange' in answer[0]!) {
        const symbols = await p2c.asDocumentSymbols(answer as ProtocolDocumentSymbol[])
        return symbols.map((s) => mergedInfo(uri, s, undefined))
      }
      return p2c.asSymbolInformations(answer as never)
    },
    'vscode.executeWorkspaceSymbolProvider': async (query: string) =>
      asArray(await p2c.asSymbolInformations(await connection.sendRequest(WorkspaceSymbolRequest.type, { query }))),
    'vscode.prepareCallHierarchy': async (uri, position) =>
      asArray(await p2c.asCallHierarchyItems(await connection.sendRequest(CallHierarchyPrepareRequest.type, at(uri, position)))),
    'vscode.provideIncomingCalls': async (item: vscode.CallHierarchyItem) =>
      asArray(
        await p2c.asCallHierarchyIncomingCalls(
          await connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: c2p.asCallHierarchyItem(item) }),
        ),
      ),
    'vscode.provideOutgoingCalls': async (item: vscode.CallHierarchyItem) =>
      asArray(
        await p2c.asCallHierarchyOutgoingCalls(
          await connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item: c2p.asCallHierarchyItem(item) }),
        ),
      ),
    'vscode.executeCodeActionProvider': async (uri, range: vscode.Range, kind?: string, itemResolveCount = 0) => {
      const diagnostics = (vscode.languages.getDiagnostics(uri) as vscode.Diagnostic[]).filter(
        (d) => d.range.intersection(range) !== undefined,
      )
      const answer = await connection.sendRequest(CodeActionRequest.type, {
        textDocument: textDocument(uri),
        range: c2p.asRange(range),
        context: { diagnostics: await c2p.asDiagnostics(diagnostics), ...(kind ? { only: [kind] } : {}), triggerKind: 1 },
      })
      const items: Array<ProtocolCommand | ProtocolCodeAction> = answer ?? []
      const out: Array<vscode.CodeAction | vscode.Command> = []
      for (const [index, item] of items.entries()) {
        if (typeof (item as ProtocolCommand).command === 'string') {
          out.push(p2c.asCommand(item as ProtocolCommand))
          continue
        }
        let action = item as ProtocolCodeAction
        // As VS Code does for the first `itemResolveCount` actions: resolve the lazy edit.
        if (
          index < itemResolveCount &&
          action.edit === undefined &&
          action.data !== undefined &&
          server.capabilities.codeActionProvider &&
          typeof server.capabilities.codeActionProvider === 'object' &&
          server.capabilities.codeActionProvider.resolveProvider
        ) {
          action = await connection.sendRequest(CodeActionResolveRequest.type, action)
        }
        const converted = (await p2c.asCodeAction(action))!
        protocolActions.set(converted, action)
        out.push(converted)
      }
      return out
    },
    'vscode.executeFormatDocumentProvider': async (uri, options: vscode.FormattingOptions) =>
      asArray(
        await p2c.asTextEdits(
          await connection.sendRequest(DocumentFormattingRequest.type, {
            textDocument: textDocument(uri),
            options: { tabSize: options.tabSize, insertSpaces: options.insertSpaces },
          }),
        ),
      ),
    'vscode.executeFormatRangeProvider': async (uri, range: vscode.Range, options: vscode.FormattingOptions) =>
      asArray(
        await p2c.asTextEdits(
          await connection.sendRequest(DocumentRangeFormattingRequest.type, {
            textDocument: textDocument(uri),
            range: c2p.asRange(range),
            options: { tabSize: options.tabSize, insertSpaces: options.insertSpaces },
          }),
        ),
      ),
    // vscode-languageclient's prepareRename: a null answer or a server error rejects, which VS Code's
    // `vscode.prepareRename` turns into a thrown Error with that message.
    'vscode.prepareRename': async (uri: vscode.Uri, position: vscode.Position) => {
      const answer = await connection.sendRequest(PrepareRenameRequest.type, at(uri, position)).catch((error: { message?: unknown }) => {
        throw new Error(typeof error.message === 'string' ? error.message : `The element can't be renamed.`)
      })
      const document = host.openDocument(uri as never)
      if (ProtocolRange.is(answer)) {
        const range = p2c.asRange(answer)
        return { range, placeholder: document.getText(range as never) }
      }
      if (answer && 'range' in answer && ProtocolRange.is(answer.range))
        return { range: p2c.asRange(answer.range), placeholder: answer.placeholder }
      if (answer && 'defaultBehavior' in answer && answer.defaultBehavior) {
        const range = document.getWordRangeAtPosition(position as never)
        if (range) return { range, placeholder: document.getText(range) }
      }
      throw new Error(`The element can't be renamed.`)
    },
    'vscode.executeDocumentRenameProvider': async (uri, position, newName: string) => {
      const answer = await connection
        .sendRequest(RenameRequest.type, { ...at(uri, position), newName })
        .catch((error: { message?: unknown }) => {
          throw new Error(typeof error.message === 'string' ? error.message : 'rename failed')
        })
      return p2c.asWorkspaceEdit(answer)
    },
    'vscode.executeInlayHintProvider': async (uri, range: vscode.Range) =>
      asArray(
        await p2c.asInlayHints(
          await connection.sendRequest(InlayHintRequest.type, { textDocument: textDocument(uri), range: c2p.asRange(range) }),
        ),
      ),
    'vscode.executeCompletionItemProvider': async (uri, position, triggerCharacter?: string) => {
      const answer = await p2c.asCompletionResult(
        await connection.sendRequest(CompletionRequest.type, {
          ...at(uri, position),
          context: triggerCharacter
            ? { triggerKind: CompletionTriggerKind.TriggerCharacter, triggerCharacter }
            : { triggerKind: CompletionTriggerKind.Invoked },
        }),
      )
      return Array.isArray(answer) ? new vscode.CompletionList(answer, false) : (answer ?? new vscode.CompletionList([], false))
    },
  }
  for (const [command, handler] of Object.entries(handlers)) subscriptions.push(vscode.commands.registerCommand(command, handler))

  return () => {
    active = false
    for (const subscription of subscriptions) subscription.dispose()
  }
}
