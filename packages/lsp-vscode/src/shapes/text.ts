import * as vscode from 'vscode'

/**
 * The text of documentation-like values VS Code hands out: plain strings, `MarkdownString`s, and
 * `MarkedString` code blocks (`{ language, value }`). Code blocks become fenced markdown.
 */
export function markdownText(value: string | vscode.MarkdownString | { language: string; value: string } | undefined): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value
  if (isMarkdownString(value)) return value.value
  if (typeof value === 'object' && typeof value.language === 'string' && typeof value.value === 'string') {
    return '```' + value.language + '\n' + value.value + '\n```'
  }
  return undefined
}

/** `MarkdownString` by shape: VS Code's own check (`MarkdownString.isMarkdownString`) is structural too. */
export function isMarkdownString(value: unknown): value is vscode.MarkdownString {
  if (value instanceof vscode.MarkdownString) return true
  const candidate = value as { value?: unknown; appendText?: unknown; appendMarkdown?: unknown } | null
  return (
    candidate !== null &&
    typeof candidate === 'object' &&
    typeof candidate.value === 'string' &&
    (typeof candidate.appendMarkdown === 'function' || typeof candidate.appendText === 'function')
  )
}
