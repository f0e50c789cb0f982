// codeseam's side of the comparison: the same five questions asked through the seam (`lsp.query`), each
// answer normalised to the oracle's keys (keys.ts). A typed failure becomes an `!error CODE` key, so it
// counts as a difference instead of passing as an empty answer.
import * as nodePath from 'node:path'

import { LspError, type LspService } from '@codeseam/lsp'

import { callKey, locationKey, renameRefusedKey, textEditKey, unique, workspaceSymbolKey } from './keys.js'
import { renameTo, sourceExtensions, type OracleLanguage, type OracleOperation, type SymbolTarget } from './oracle.js'

/** Workspace-relative, '/'-separated; a path outside the root stays absolute (and so never matches). */
export function relativePath(root: string, path: string): string {
  const relative = nodePath.relative(root, path)
  return relative.startsWith('..') || nodePath.isAbsolute(relative) ? path : relative.split(nodePath.sep).join('/')
}

export function errorKey(error: unknown): string {
  if (error instanceof LspError) return `!error ${error.code}: ${error.message.split('\n')[0] ?? ''}`
  return `!error ${(error as Error).message.split('\n')[0] ?? String(error)}`
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
  if (operation === 'workspaceSymbols') {
    try {
      const { symbols, meta } = await lsp.query({ operation: 'workspaceSymbols', root, query: target.name })
      const extensions = sourceExtensions[language]
      const keyOf = (symbol: (typeof symbols)[number]) =>
        workspaceSymbolKey(symbol.name, symbol.kind, relativePath(root, symbol.location.path), symbol.location.range)
      const keys = unique(
        symbols.flatMap((symbol) => (extensions.includes(nodePath.extname(symbol.location.path).toLowerCase()) ? [keyOf(symbol)] : [])),
      )
      // What the fan-out says it did not search is part of the answer too.
      const coverage = (meta as { coverage?: unknown }).coverage
      return { keys, all: unique([...symbols.map(keyOf), ...(coverage === undefined ? [] : [`!coverage ${JSON.stringify(coverage)}`])]) }
    } catch (error) {
      return { keys: [errorKey(error)], all: [errorKey(error)] }
    }
  }
  const keys = await positionAnswer(lsp, root, operation, target)
  return { keys, all: keys }
}

async function positionAnswer(
  lsp: LspService,
  root: string,
  operation: Exclude<OracleOperation, 'workspaceSymbols'>,
  target: SymbolTarget,
): Promise<string[]> {
  const at = { root, path: target.path, position: { line: target.line, character: target.character } }
  const rel = (path: string) => relativePath(root, path)
  try {
    switch (operation) {
      case 'references': {
        const { locations } = await lsp.query({ operation: 'references', ...at })
        return unique(locations.map((location) => locationKey(rel(location.path), location.range)))
      }
      case 'implementation': {
        const { locations } = await lsp.query({ operation: 'implementation', ...at })
        return unique(locations.map((location) => locationKey(rel(location.path), location.range)))
      }
      case 'rename': {
        const { rename } = await lsp.query({ operation: 'prepareRename', ...at })
        if (!rename.canRename) return [renameRefusedKey]
        const { edit } = await lsp.query({ operation: 'rename', ...at, newName: renameTo })
        return unique(
          edit.operations.flatMap((step) => {
            if (step.type === 'edit') return step.edits.map((text) => textEditKey(rel(step.path), text.range, text.newText))
            return [`!file-operation ${step.type} ${JSON.stringify(step)}`]
          }),
        )
      }
      case 'incomingCalls': {
        const { items } = await lsp.query({ operation: 'prepareCallHierarchy', ...at })
        const keys: string[] = []
        for (const item of items) {
          const { calls } = await lsp.query({ operation: 'incomingCalls', root, item })
          for (const call of calls) keys.push(callKey(rel(call.item.path), call.item.selectionRange, call.fromRanges))
        }
        return unique(keys)
      }
    }
  } catch (error) {
    return [errorKey(error)]
  }
}
