import { LspError, linesFor, type LspResultMeta, type TextLines } from '@codeseam/lsp'
import type { CallHierarchyItem, TypeHierarchyItem } from 'vscode-languageserver-protocol/node'

import type { CodeActionStore } from './code-actions.js'
import type { LanguageServer } from '../server/language-server.js'
import type { OpenDocument } from '../documents/documents.js'
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

/** Request options every server request of an operation carries. */
export function requestOptions(ctx: OperationContext): { timeoutMs: number; signal: AbortSignal } {
  return { timeoutMs: ctx.timeoutMs, signal: ctx.signal }
}

/** The document and the request's position, validated against the synced text. */
export function positionParams(
  request: { readonly position: { line: number; character: number } },
  ctx: OperationContext,
): { textDocument: { uri: string }; position: { line: number; character: number } } {
  return { textDocument: { uri: ctx.document.uri }, position: linesOf(ctx.document).validate(request.position) }
}

/** The document version the server holds for a URI, for edits (null: not open). */
export function versionOf(ctx: OperationContext): (uri: string) => number | null {
  return (uri) => ctx.server.documents.get(ctx.translator.pathOf(uri) ?? '')?.version ?? null
}

/** The protocol item carried in a seam hierarchy item's `data`, checked. */
export function protocolItem(
  request: { item: { data?: unknown; path: string } },
  ctx: OperationContext,
): CallHierarchyItem & TypeHierarchyItem {
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
