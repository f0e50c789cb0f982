import {
  LspError,
  linesFor,
  type TextLines,
  type LspProviderRequest,
  type LspQueryRequest,
  type LspQueryResult,
  type LspResultMeta,
} from '@codeseam/lsp'
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  CodeActionRequest,
  CompletionRequest,
  DeclarationRequest,
  DefinitionRequest,
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ImplementationRequest,
  InlayHintRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  SignatureHelpRequest,
  TypeDefinitionRequest,
  TypeHierarchyPrepareRequest,
  TypeHierarchySubtypesRequest,
  TypeHierarchySupertypesRequest,
  type CallHierarchyItem,
  type TypeHierarchyItem,
} from 'vscode-languageserver-protocol/node'

import { resolveAction, type CodeActionStore } from './code-actions.js'
import type { OpenDocument } from '../workspace/documents.js'
import type { LanguageServer } from '../server/language-server.js'
import type { Translator } from './translate.js'

/** What one file- or item-scoped operation runs with. */
export interface OperationContext {
  readonly server: LanguageServer
  readonly translator: Translator
  readonly document: OpenDocument
  readonly actions: CodeActionStore
  readonly timeoutMs: number
  readonly signal: AbortSignal
  readonly meta: (extra?: Partial<LspResultMeta>) => LspResultMeta
}

/** Line structure of a synced document: the seam's one table per content hash. */
export function linesOf(document: OpenDocument): TextLines {
  return linesFor(document)
}

/** The protocol item carried in a seam hierarchy item's `data`, checked. */
function protocolItem(request: { item: { data?: unknown; path: string } }, ctx: OperationContext): CallHierarchyItem & TypeHierarchyItem {
  const data = request.item.data as Partial<CallHierarchyItem> | undefined
  if (
    data === undefined ||
    data === null ||
    typeof data !== 'object' ||
    typeof data.uri !== 'string' ||
    data.range === undefined ||
    data.selectionRange === undefined ||
    typeof data.name !== 'string'
  ) {
    throw new LspError(
      'INVALID_ARGUMENT',
      'the hierarchy item has no server data: pass an item exactly as prepareCallHierarchy / prepareTypeHierarchy returned it',
    )
  }
  if (data.uri !== ctx.document.uri) {
    throw new LspError('INVALID_ARGUMENT', `the hierarchy item's data points at ${data.uri}, not at its path ${request.item.path}`)
  }
  return data as CallHierarchyItem & TypeHierarchyItem
}

/** Runs one file- or item-scoped operation against a ready server with a synced document. */
export async function runOperation(request: LspProviderRequest<LspQueryRequest>, ctx: OperationContext): Promise<LspQueryResult> {
  const { server, translator, document } = ctx
  const options = { timeoutMs: ctx.timeoutMs, signal: ctx.signal }
  const textDocument = { uri: document.uri }
  const position = 'position' in request ? linesOf(document).validate(request.position) : { line: 0, character: 0 }
  const at = { textDocument, position }
  const versionOf = (uri: string) => server.documents.get(translator.pathOf(uri) ?? '')?.version ?? null
  switch (request.operation) {
    case 'definition':
      return {
        kind: 'locations',
        locations: translator.locations(await server.request(DefinitionRequest.type, at, options)),
        meta: ctx.meta(),
      }
    case 'typeDefinition':
      return {
        kind: 'locations',
        locations: translator.locations(await server.request(TypeDefinitionRequest.type, at, options)),
        meta: ctx.meta(),
      }
    case 'declaration':
      return {
        kind: 'locations',
        locations: translator.locations(await server.request(DeclarationRequest.type, at, options)),
        meta: ctx.meta(),
      }
    case 'implementation':
      return {
        kind: 'locations',
        locations: translator.locations(await server.request(ImplementationRequest.type, at, options)),
        meta: ctx.meta(),
      }
    case 'references':
      return {
        kind: 'locations',
        locations: translator.locations(
          await server.request(ReferencesRequest.type, { ...at, context: { includeDeclaration: true } }, options),
        ),
        meta: ctx.meta(),
      }
    case 'hover':
      return { kind: 'hover', hover: translator.hover(await server.request(HoverRequest.type, at, options)), meta: ctx.meta() }
    case 'signatureHelp':
      return {
        kind: 'signatureHelp',
        signatureHelp: translator.signatureHelp(await server.request(SignatureHelpRequest.type, at, options)),
        meta: ctx.meta(),
      }
    case 'documentSymbols':
      return {
        kind: 'documentSymbols',
        symbols: translator.documentSymbols(await server.request(DocumentSymbolRequest.type, { textDocument }, options)),
        meta: ctx.meta(),
      }
    case 'prepareCallHierarchy':
      return {
        kind: 'hierarchyItems',
        items: translator.hierarchyItems(await server.request(CallHierarchyPrepareRequest.type, at, options)),
        meta: ctx.meta(),
      }
    case 'incomingCalls': {
      const calls = (await server.request(CallHierarchyIncomingCallsRequest.type, { item: protocolItem(request, ctx) }, options)) ?? []
      return {
        kind: 'hierarchyCalls',
        calls: calls.flatMap((call) => {
          const item = translator.hierarchyItem(call.from)
          return item === undefined ? [] : [{ item, fromRanges: call.fromRanges }]
        }),
        meta: ctx.meta(),
      }
    }
    case 'outgoingCalls': {
      const calls = (await server.request(CallHierarchyOutgoingCallsRequest.type, { item: protocolItem(request, ctx) }, options)) ?? []
      return {
        kind: 'hierarchyCalls',
        calls: calls.flatMap((call) => {
          const item = translator.hierarchyItem(call.to)
          return item === undefined ? [] : [{ item, fromRanges: call.fromRanges }]
        }),
        meta: ctx.meta(),
      }
    }
    case 'prepareTypeHierarchy':
      return {
        kind: 'hierarchyItems',
        items: translator.hierarchyItems(await server.request(TypeHierarchyPrepareRequest.type, at, options)),
        meta: ctx.meta(),
      }
    case 'supertypes':
      return {
        kind: 'hierarchyItems',
        items: translator.hierarchyItems(
          await server.request(TypeHierarchySupertypesRequest.type, { item: protocolItem(request, ctx) }, options),
        ),
        meta: ctx.meta(),
      }
    case 'subtypes':
      return {
        kind: 'hierarchyItems',
        items: translator.hierarchyItems(
          await server.request(TypeHierarchySubtypesRequest.type, { item: protocolItem(request, ctx) }, options),
        ),
        meta: ctx.meta(),
      }
    case 'inlayHints': {
      const lines = linesOf(document)
      const range = request.range ?? { start: { line: 0, character: 0 }, end: lines.positionAt(document.text.length) }
      if (request.range !== undefined) {
        lines.validate(request.range.start)
        lines.validate(request.range.end)
      }
      return {
        kind: 'inlayHints',
        hints: translator.inlayHints(await server.request(InlayHintRequest.type, { textDocument, range }, options)),
        meta: ctx.meta(),
      }
    }
    case 'completion': {
      const context =
        request.triggerCharacter === undefined
          ? { triggerKind: 1 as const }
          : { triggerKind: 2 as const, triggerCharacter: request.triggerCharacter }
      const { items, isIncomplete } = translator.completion(await server.request(CompletionRequest.type, { ...at, context }, options))
      return { kind: 'completion', items, isIncomplete, meta: ctx.meta() }
    }
    case 'codeActions': {
      const lines = linesOf(document)
      lines.validate(request.range.start)
      lines.validate(request.range.end)
      const diagnostics = (server.diagnostics.get(document.uri)?.diagnostics ?? []).filter(
        (d) => d.range.start.line <= request.range.end.line && d.range.end.line >= request.range.start.line,
      )
      const actions =
        (await server.request(
          CodeActionRequest.type,
          {
            textDocument,
            range: request.range,
            context: { diagnostics: [...diagnostics], ...(request.only === undefined ? {} : { only: [...request.only] }) },
          },
          options,
        )) ?? []
      return {
        kind: 'codeActions',
        actions: actions.map((a) => ctx.actions.add(a, document.path, document.version, document.hash)),
        meta: ctx.meta(),
      }
    }
    case 'resolveCodeAction': {
      const stored = ctx.actions.get(request.actionId)
      if (stored.path !== document.path)
        throw new LspError('INVALID_ARGUMENT', `code action ${request.actionId} belongs to ${stored.path}, not ${document.path}`)
      if (stored.hash !== document.hash) {
        throw new LspError(
          'STALE_VERSION',
          `${document.path} changed since its code actions were listed (version ${stored.version} → ${document.version}); list them again`,
        )
      }
      const resolved = await resolveAction(server, stored, translator, versionOf, options)
      return {
        kind: 'codeActionResolution',
        title: resolved.title,
        edit: resolved.edit,
        ...(resolved.command === undefined ? {} : { command: resolved.command }),
        meta: ctx.meta(),
      }
    }
    case 'prepareRename': {
      const provider = server.capabilities.renameProvider
      if (typeof provider === 'object' && provider.prepareProvider === true) {
        try {
          const answer = await server.request(PrepareRenameRequest.type, at, options)
          if (answer === null || answer === undefined)
            return {
              kind: 'prepareRename',
              rename: { canRename: false, reason: 'the server says nothing here can be renamed' },
              meta: ctx.meta(),
            }
          const range = 'range' in answer ? answer.range : 'start' in answer ? answer : undefined
          const placeholder = 'placeholder' in answer ? answer.placeholder : undefined
          if (range === undefined)
            return {
              kind: 'prepareRename',
              rename: { canRename: true, range: wordRange(document, position), placeholder: wordAt(document, position) },
              meta: ctx.meta(),
            }
          return {
            kind: 'prepareRename',
            rename: { canRename: true, range, placeholder: placeholder ?? sliceRange(document, range) },
            meta: ctx.meta(),
          }
        } catch (error) {
          // A server refuses a rename with an error whose message says why.
          if (error instanceof LspError && error.code === 'SERVER_ERROR')
            return { kind: 'prepareRename', rename: { canRename: false, reason: error.message }, meta: ctx.meta() }
          throw error
        }
      }
      return {
        kind: 'prepareRename',
        rename: { canRename: true, range: wordRange(document, position), placeholder: wordAt(document, position) },
        meta: ctx.meta(),
      }
    }
    case 'rename': {
      if (request.newName.trim() === '') throw new LspError('INVALID_ARGUMENT', 'newName is empty')
      const edit = await server.request(RenameRequest.type, { ...at, newName: request.newName }, options)
      return { kind: 'workspaceEdit', edit: translator.workspaceEdit(edit, versionOf), meta: ctx.meta() }
    }
    case 'format': {
      const formatting = request.options ?? { tabSize: 2, insertSpaces: true }
      const edits =
        request.range === undefined
          ? await server.request(DocumentFormattingRequest.type, { textDocument, options: { ...formatting } }, options)
          : await server.request(
              DocumentRangeFormattingRequest.type,
              { textDocument, range: request.range, options: { ...formatting } },
              options,
            )
      return {
        kind: 'workspaceEdit',
        edit: translator.workspaceEdit(edits === null || edits.length === 0 ? null : { changes: { [document.uri]: edits } }, versionOf),
        meta: ctx.meta(),
      }
    }
    case 'workspaceSymbols':
    case 'diagnostics':
      throw new LspError('INVALID_ARGUMENT', `${request.operation} is not a file operation`)
  }
}

const identifier = /[\p{L}\p{N}_$]/u

function wordBounds(document: OpenDocument, position: { line: number; character: number }): { start: number; end: number; text: string } {
  const text = linesOf(document).lineText(position.line)
  let start = position.character
  let end = position.character
  while (start > 0 && identifier.test(text.charAt(start - 1))) start--
  while (end < text.length && identifier.test(text.charAt(end))) end++
  return { start, end, text: text.slice(start, end) }
}

function wordRange(document: OpenDocument, position: { line: number; character: number }) {
  const { start, end } = wordBounds(document, position)
  return { start: { line: position.line, character: start }, end: { line: position.line, character: end } }
}

function wordAt(document: OpenDocument, position: { line: number; character: number }): string {
  return wordBounds(document, position).text
}

function sliceRange(
  document: OpenDocument,
  range: { start: { line: number; character: number }; end: { line: number; character: number } },
): string {
  const lines = linesOf(document)
  return document.text.slice(lines.offsetAt(range.start), lines.offsetAt(range.end))
}
