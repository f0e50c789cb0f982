import { LspError, builtInLanguageFacts, type LspRange } from '@codeseam/lsp'
import {
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  PrepareRenameRequest,
  RenameRequest,
} from 'vscode-languageserver-protocol/node'

import { linesOf, positionParams, requestOptions, versionOf, type OperationContext } from './context.js'
import type { Feature } from './feature.js'
import type { OpenDocument } from '../documents/documents.js'

// Rename and format: answers are edits, never applied here. Edits to other documents are computed against
// the version the server holds (versionOf).

const renameEnabler = [{ capability: 'renameProvider', method: RenameRequest.method }] as const
const renameClient = { textDocument: { rename: { dynamicRegistration: true, prepareSupport: true, honorsChangeAnnotations: true } } }

export const prepareRename = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    enabledBy: renameEnabler,
    client: renameClient,
    run: async (request, ctx) => {
      const at = positionParams(request, ctx)
      const { document } = ctx
      const accepted = (range: LspRange, name: string) =>
        // Some servers (JDT LS) accept a rename on a keyword: a reserved word names no symbol, so it is refused here.
        isReservedWord(document.languageId, name)
          ? {
              kind: 'prepareRename' as const,
              rename: {
                canRename: false as const,
                reason: `\`${name}\` is a reserved word, not a symbol: there is nothing here to rename`,
              },
              meta: ctx.meta(),
            }
          : { kind: 'prepareRename' as const, rename: { canRename: true as const, range, placeholder: name }, meta: ctx.meta() }
      const word = () => accepted(wordRange(document, at.position), wordAt(document, at.position))
      const provider = ctx.server.capabilities.renameProvider
      // A server without prepareRename renames whatever word is there.
      if (typeof provider !== 'object' || provider.prepareProvider !== true) return word()
      try {
        const answer = await ctx.server.request(PrepareRenameRequest.type, at, requestOptions(ctx))
        if (answer === null || answer === undefined)
          return {
            kind: 'prepareRename',
            rename: { canRename: false, reason: 'the server says nothing here can be renamed' },
            meta: ctx.meta(),
          }
        const range = 'range' in answer ? answer.range : 'start' in answer ? answer : undefined
        const placeholder = 'placeholder' in answer ? answer.placeholder : undefined
        // { defaultBehavior: true }: the server accepts and leaves the range to the client.
        if (range === undefined) return word()
        return accepted(range, placeholder ?? sliceRange(document, range))
      } catch (error) {
        // A server refuses a rename with an error whose message says why.
        if (error instanceof LspError && error.code === 'SERVER_ERROR')
          return { kind: 'prepareRename', rename: { canRename: false, reason: error.message }, meta: ctx.meta() }
        throw error
      }
    },
  },
} satisfies Feature<'prepareRename'>

/** A reserved word of the language (where reserved words cannot even name a member). */
function isReservedWord(languageId: string, word: string): boolean {
  const facts = builtInLanguageFacts.find((f) => f.languageIds.includes(languageId))
  return facts !== undefined && facts.keywordsAllowedAsMemberNames !== true && facts.keywords.includes(word.trim())
}

export const rename = {
  scope: 'everyProject',
  retryWhenEmpty: false,
  source: {
    enabledBy: renameEnabler,
    client: renameClient,
    run: async (request, ctx) => {
      if (request.newName.trim() === '') throw new LspError('INVALID_ARGUMENT', 'newName is empty')
      const edit = await ctx.server.request(
        RenameRequest.type,
        { ...positionParams(request, ctx), newName: request.newName },
        requestOptions(ctx),
      )
      return { kind: 'workspaceEdit', edit: ctx.translator.workspaceEdit(edit, versionOf(ctx)), meta: ctx.meta() }
    },
  },
} satisfies Feature<'rename'>

export const format = {
  scope: 'document',
  retryWhenEmpty: false,
  source: {
    // Either kind of formatting is enough: a range request to a server without range formatting fails typed.
    enabledBy: [
      { capability: 'documentFormattingProvider', method: DocumentFormattingRequest.method },
      { capability: 'documentRangeFormattingProvider', method: DocumentRangeFormattingRequest.method },
    ],
    client: { textDocument: { formatting: { dynamicRegistration: true }, rangeFormatting: { dynamicRegistration: true } } },
    run: async (request, ctx) => formatDocument(request, ctx),
  },
} satisfies Feature<'format'>

async function formatDocument(
  request: { readonly range?: LspRange; readonly options?: { readonly tabSize: number; readonly insertSpaces: boolean } },
  ctx: OperationContext,
) {
  const textDocument = { uri: ctx.document.uri }
  const formatting = request.options ?? { tabSize: 2, insertSpaces: true }
  const edits =
    request.range === undefined
      ? await ctx.server.request(DocumentFormattingRequest.type, { textDocument, options: { ...formatting } }, requestOptions(ctx))
      : await ctx.server.request(
          DocumentRangeFormattingRequest.type,
          { textDocument, range: request.range, options: { ...formatting } },
          requestOptions(ctx),
        )
  // A whole-document edit often ends past the text (bash-language-server: line 2147483647); the protocol's
  // positions default back to the end of their line, and a line past the end is the end of the document.
  const lines = linesOf(ctx.document)
  const clamp = (p: { line: number; character: number }) =>
    p.line >= lines.lineCount
      ? lines.positionAt(Number.MAX_SAFE_INTEGER)
      : { line: p.line, character: Math.min(p.character, lines.lineLength(p.line)) }
  const clamped = (edits ?? []).map((e) => ({ ...e, range: { start: clamp(e.range.start), end: clamp(e.range.end) } }))
  return {
    kind: 'workspaceEdit' as const,
    edit: ctx.translator.workspaceEdit(clamped.length === 0 ? null : { changes: { [ctx.document.uri]: clamped } }, versionOf(ctx)),
    meta: ctx.meta(),
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
