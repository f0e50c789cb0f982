// codeseam's side of the comparison: the same questions asked through the seam (`lsp.query`), each answer
// normalised to the oracle's keys (keys.ts). A typed failure becomes an `!error CODE` key, so it counts as a
// difference instead of passing as an empty answer.
import * as nodePath from 'node:path'

import { LspError, type LspDocumentSymbol, type LspResultMeta, type LspService } from '@codeseam/lsp'

import {
  callKey,
  diagnosticKey,
  documentSymbolKey,
  symbolKeyName,
  cappedKeys,
  droppedKey,
  fileOperationKey,
  hoverKey,
  locationKey,
  outsideEditKey,
  renameRefusedKey,
  serverErrorKey,
  textEditKey,
  unique,
  workspaceSymbolKey,
} from './keys.js'
import {
  formattingOptions,
  isToolchainLanguage,
  renameToFor,
  sourceExtensions,
  type OracleLanguage,
  type OracleOperation,
  type SymbolTarget,
} from './oracle.js'

/** Workspace-relative, '/'-separated; a path outside the root stays absolute (and so never matches). */
export function relativePath(root: string, path: string): string {
  const relative = nodePath.relative(root, path)
  return relative.startsWith('..') || nodePath.isAbsolute(relative) ? path : relative.split(nodePath.sep).join('/')
}

export function errorKey(error: unknown): string {
  if (error instanceof LspError) return `!error ${error.code}: ${error.message.split('\n')[0] ?? ''}`
  return `!error ${(error as Error).message.split('\n')[0] ?? String(error)}`
}

/**
 * gopls and rust-analyzer: a server's own error answer, as the server sent it (codeseam wraps it in SERVER_ERROR,
 * or STALE_VERSION for ContentModified, with the JSON-RPC error as the cause), and an edit reaching outside the
 * root (OUTSIDE_WORKSPACE), in the oracle's keys; anything else as {@link errorKey}.
 */
function toolchainErrorKey(error: unknown): string {
  if (error instanceof LspError) {
    if (error.code === 'OUTSIDE_WORKSPACE') return outsideEditKey
    const cause = error.cause as { code?: unknown; message?: unknown } | undefined
    if (
      (error.code === 'SERVER_ERROR' || error.code === 'STALE_VERSION') &&
      typeof cause?.code === 'number' &&
      typeof cause.message === 'string'
    )
      return serverErrorKey(cause.code, cause.message)
  }
  return errorKey(error)
}

/** One operation for one symbol through the seam, normalised. `root` is the canonical workspace root. */
export async function seamAsk(
  lsp: LspService,
  root: string,
  language: OracleLanguage,
  operation: OracleOperation,
  target: SymbolTarget,
): Promise<string[]> {
  return (await seamAnswer(lsp, root, language, operation, target)).keys
}

/**
 * Like {@link seamAsk}, also returning the whole answer: `keys` holds what compares with the oracle (for
 * workspace symbols: the oracle's language's files only, since the seam fans out to every language's
 * server); `all` holds everything the seam returned (the same as `keys` for the other operations), for the
 * determinism check.
 */
export async function seamAnswer(
  lsp: LspService,
  root: string,
  language: OracleLanguage,
  operation: OracleOperation,
  target: SymbolTarget,
): Promise<{ keys: string[]; all: string[] }> {
  const toolchain = isToolchainLanguage(language)
  // gopls and rust-analyzer: how many locations outside the root the answer dropped is part of it (keys.ts droppedKey).
  const dropped = (...metas: ReadonlyArray<LspResultMeta>) =>
    // A location in a library codeseam knows (the toolchain's sources, the cargo registry, GOROOT) is named in
    // meta.libraryLocations instead of counted: both are outside the root, as the oracle counts them.
    toolchain
      ? droppedKey(metas.reduce((sum, meta) => sum + (meta.droppedOutsideWorkspace ?? 0) + (meta.libraryLocations?.length ?? 0), 0))
      : []
  if (operation === 'workspaceSymbols') {
    try {
      const { symbols, meta } = await lsp.query({ operation: 'workspaceSymbols', root, query: target.name })
      const capped = cappedKeys(language, symbols.length + (meta.droppedOutsideWorkspace ?? 0) + (meta.libraryLocations?.length ?? 0))
      if (capped !== undefined) return { keys: capped, all: capped }
      const extensions = sourceExtensions[language]
      const keyOf = (symbol: (typeof symbols)[number]) =>
        workspaceSymbolKey(symbol.name, symbol.kind, relativePath(root, symbol.location.path), symbol.location.range)
      const keys = unique([
        ...symbols.flatMap((symbol) => (extensions.includes(nodePath.extname(symbol.location.path).toLowerCase()) ? [keyOf(symbol)] : [])),
        ...dropped(meta),
      ])
      // What the fan-out says it did not search is part of the answer too.
      const coverage = (meta as { coverage?: unknown }).coverage
      return {
        keys,
        all: unique([
          ...symbols.map(keyOf),
          ...dropped(meta),
          ...(coverage === undefined ? [] : [`!coverage ${JSON.stringify(coverage)}`]),
        ]),
      }
    } catch (error) {
      const key = toolchain ? toolchainErrorKey(error) : errorKey(error)
      return { keys: [key], all: [key] }
    }
  }
  const keys = await positionAnswer(lsp, root, language, operation, target, dropped)
  return { keys, all: keys }
}

async function positionAnswer(
  lsp: LspService,
  root: string,
  language: OracleLanguage,
  operation: Exclude<OracleOperation, 'workspaceSymbols'>,
  target: SymbolTarget,
  dropped: (...metas: ReadonlyArray<LspResultMeta>) => string[],
): Promise<string[]> {
  const at = { root, path: target.path, position: { line: target.line, character: target.character } }
  const rel = (path: string) => relativePath(root, path)
  try {
    switch (operation) {
      case 'references':
      case 'implementation':
      case 'definition': {
        const { locations, meta } = await lsp.query({ operation, ...at })
        return unique([...locations.map((location) => locationKey(rel(location.path), location.range)), ...dropped(meta)])
      }
      case 'rename': {
        const { rename } = await lsp.query({ operation: 'prepareRename', ...at })
        if (!rename.canRename) return [renameRefusedKey]
        const { edit } = await lsp.query({ operation: 'rename', ...at, newName: renameToFor(target, language) })
        return unique(
          edit.operations.flatMap((step) => {
            if (step.type === 'edit') return step.edits.map((text) => textEditKey(rel(step.path), text.range, text.newText))
            if (step.type === 'rename') return [fileOperationKey('rename', rel(step.oldPath), rel(step.newPath))]
            return [fileOperationKey(step.type, rel(step.path))]
          }),
        )
      }
      case 'incomingCalls': {
        const prepared = await lsp.query({ operation: 'prepareCallHierarchy', ...at })
        const keys: string[] = []
        const metas = [prepared.meta]
        for (const item of prepared.items) {
          const { calls, meta } = await lsp.query({ operation: 'incomingCalls', root, item })
          metas.push(meta)
          for (const call of calls) keys.push(callKey(rel(call.item.path), call.item.selectionRange, call.fromRanges))
        }
        return unique([...keys, ...dropped(...metas)])
      }
      case 'hover': {
        const { hover } = await lsp.query({ operation: 'hover', ...at })
        return hover === null ? [] : [hoverKey(hover.contents, hover.range)]
      }
      case 'documentSymbols': {
        const { symbols } = await lsp.query({ operation: 'documentSymbols', root, path: target.path })
        const keys: string[] = []
        const visit = (symbol: LspDocumentSymbol, chain: ReadonlyArray<string>) => {
          const name = symbolKeyName(symbol.name, symbol.containerName)
          keys.push(documentSymbolKey(chain, name, symbol.kind, target.path, symbol.range, symbol.selectionRange, symbol.detail))
          for (const child of symbol.children ?? []) visit(child, [...chain, name])
        }
        for (const symbol of symbols) visit(symbol, [])
        return unique(keys)
      }
      case 'diagnostics': {
        const { files, meta } = await lsp.query({ operation: 'diagnostics', root, path: target.path })
        const keys: string[] = []
        for (const file of files) {
          // A first answer that is not the server's analysis of the file as it is now is a difference of its own.
          if (file.freshness !== 'current') keys.push(`!diagnostics ${file.freshness}`)
          for (const d of file.diagnostics) keys.push(diagnosticKey(rel(file.path), d.range, d.severity, d.code, d.message))
        }
        return unique([...keys, ...dropped(meta)])
      }
      case 'format': {
        const { edit } = await lsp.query({ operation: 'format', root, path: target.path, options: { ...formattingOptions } })
        return unique(
          edit.operations.flatMap((step) =>
            step.type === 'edit' ? step.edits.map((text) => textEditKey(rel(step.path), text.range, text.newText)) : [`!${step.type}`],
          ),
        )
      }
    }
  } catch (error) {
    return [isToolchainLanguage(language) ? toolchainErrorKey(error) : errorKey(error)]
  }
}
