import { comparePositions, symbolKindFromNumber, type LspDocumentSymbol, type LspSymbolKind, type LspWorkspaceSymbol } from '@codeseam/lsp'
import type * as vscode from 'vscode'

import type { Containment } from '../containment.js'
import { fromVsRange, isVsRange } from './positions.js'

/** VS Code's `SymbolKind` counts from 0 (File = 0); the protocol and the seam from 1. */
export function symbolKind(kind: vscode.SymbolKind | number): LspSymbolKind {
  return symbolKindFromNumber(kind + 1)
}

/** Whether a symbol carries the DocumentSymbol shape (VS Code merges both shapes into one object). */
function isDocumentSymbol(value: vscode.DocumentSymbol | vscode.SymbolInformation): value is vscode.DocumentSymbol {
  const symbol = value as { children?: unknown; selectionRange?: unknown; range?: unknown }
  return Array.isArray(symbol.children) && isVsRange(symbol.selectionRange) && isVsRange(symbol.range)
}

/**
 * The outline of a document. Modern extensions give `DocumentSymbol` trees; older ones give flat
 * `SymbolInformation` lists, which are nested here by range containment (the only structure they carry).
 */
export function toDocumentSymbols(
  answer: ReadonlyArray<vscode.DocumentSymbol | vscode.SymbolInformation> | undefined | null,
): LspDocumentSymbol[] {
  if (!answer || answer.length === 0) return []
  if (answer.every(isDocumentSymbol)) return answer.map(fromDocumentSymbol)
  return nestByRange(
    answer.map((s) => (isDocumentSymbol(s) ? fromDocumentSymbol(s) : fromSymbolInformation(s as vscode.SymbolInformation))),
  )
}

function fromDocumentSymbol(symbol: vscode.DocumentSymbol): LspDocumentSymbol {
  return {
    name: symbol.name,
    kind: symbolKind(symbol.kind),
    ...(symbol.detail ? { detail: symbol.detail } : {}),
    range: fromVsRange(symbol.range),
    selectionRange: fromVsRange(symbol.selectionRange),
    children: (symbol.children ?? []).map(fromDocumentSymbol),
  }
}

function fromSymbolInformation(symbol: vscode.SymbolInformation): LspDocumentSymbol {
  const range = fromVsRange(symbol.location.range)
  // SymbolInformation has no selection range: the name is searched for at the start of the range.
  return { name: symbol.name, kind: symbolKind(symbol.kind), range, selectionRange: range, children: [] }
}

interface MutableSymbol {
  readonly symbol: LspDocumentSymbol
  readonly children: MutableSymbol[]
}

/** Rebuilds a tree from flat symbols: each goes under the smallest earlier symbol whose range contains it. */
function nestByRange(flat: ReadonlyArray<LspDocumentSymbol>): LspDocumentSymbol[] {
  const sorted = [...flat].sort((a, b) => comparePositions(a.range.start, b.range.start) || comparePositions(b.range.end, a.range.end))
  const roots: MutableSymbol[] = []
  const stack: MutableSymbol[] = []
  for (const symbol of sorted) {
    const node: MutableSymbol = { symbol, children: [] }
    while (stack.length > 0 && comparePositions(stack[stack.length - 1]!.symbol.range.end, symbol.range.end) < 0) stack.pop()
    const parent = stack[stack.length - 1]
    if (parent) parent.children.push(node)
    else roots.push(node)
    stack.push(node)
  }
  const freeze = (node: MutableSymbol): LspDocumentSymbol => ({ ...node.symbol, children: node.children.map(freeze) })
  return roots.map(freeze)
}

/** Workspace symbols inside the root. */
export function toWorkspaceSymbols(
  answer: ReadonlyArray<vscode.SymbolInformation> | undefined | null,
  containment: Containment,
): LspWorkspaceSymbol[] {
  if (!answer) return []
  const out: LspWorkspaceSymbol[] = []
  for (const symbol of answer) {
    const kept = containment.keep(symbol.location?.uri)
    if (kept === undefined) continue
    out.push({
      name: symbol.name,
      kind: symbolKind(symbol.kind),
      ...(symbol.containerName ? { containerName: symbol.containerName } : {}),
      location: { ...kept, range: fromVsRange(symbol.location.range) },
    })
  }
  return out
}
