import type { LspPosition, LspRange } from '@codeseam/lsp'
import * as vscode from 'vscode'

/** VS Code position → seam position. Both are zero-based lines and UTF-16 characters. */
export function fromVsPosition(position: vscode.Position): LspPosition {
  return { line: position.line, character: position.character }
}

/** VS Code range → seam range. */
export function fromVsRange(range: vscode.Range): LspRange {
  return { start: fromVsPosition(range.start), end: fromVsPosition(range.end) }
}

/** Seam position → a genuine `vscode.Position` (commands validate argument types). */
export function toVsPosition(position: LspPosition): vscode.Position {
  return new vscode.Position(position.line, position.character)
}

/** Seam range → a genuine `vscode.Range`. */
export function toVsRange(range: LspRange): vscode.Range {
  return new vscode.Range(toVsPosition(range.start), toVsPosition(range.end))
}

/** The range covering a whole document, for operations that need one when the caller gave none. */
export function wholeDocumentRange(document: vscode.TextDocument): vscode.Range {
  const last = document.lineAt(document.lineCount - 1)
  return new vscode.Range(new vscode.Position(0, 0), last.range.end)
}

/** Whether a value has the shape of a VS Code range (instances cross extension hosts as plain shapes too). */
export function isVsRange(value: unknown): value is vscode.Range {
  const range = value as { start?: { line?: unknown }; end?: { line?: unknown } } | null
  return range !== null && typeof range === 'object' && typeof range.start?.line === 'number' && typeof range.end?.line === 'number'
}
