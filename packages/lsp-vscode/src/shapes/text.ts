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

/** Removes snippet syntax (tab stops, placeholders, choices, escapes) to leave the text a person would get. */
export function snippetToText(snippet: string): string {
  let out = ''
  for (let i = 0; i < snippet.length; i++) {
    const ch = snippet[i]
    if (ch === '\\' && i + 1 < snippet.length && '$}\\,|'.includes(snippet[i + 1] ?? '')) {
      out += snippet[++i]
      continue
    }
    if (ch === '$') {
      const rest = snippet.slice(i + 1)
      const tabStop = /^(\d+)/.exec(rest)
      if (tabStop) {
        i += tabStop[1]!.length
        continue
      }
      const braced = /^\{(\d+)(?:(:)|(\|)|\})/.exec(rest)
      if (braced) {
        const { inner, length } = bracedBody(snippet, i + 1)
        const body = braced[3] !== undefined ? (inner.slice(inner.indexOf('|') + 1).split(',')[0] ?? '') : inner.replace(/^\d+:?/, '')
        out += braced[2] !== undefined ? snippetToText(body) : braced[3] !== undefined ? body : ''
        i += length
        continue
      }
      const variable = /^\{?([A-Za-z_][A-Za-z0-9_]*)/.exec(rest)
      if (variable) {
        if (rest.startsWith('{')) {
          const { inner, length } = bracedBody(snippet, i + 1)
          const colon = inner.indexOf(':')
          out += colon < 0 ? '' : snippetToText(inner.slice(colon + 1))
          i += length
        } else {
          i += variable[1]!.length
        }
        continue
      }
    }
    out += ch
  }
  return out
}

/** The body of a `{…}` group starting at `open` (which holds `{`), honouring nesting and escapes. */
function bracedBody(text: string, open: number): { inner: string; length: number } {
  let depth = 0
  for (let j = open; j < text.length; j++) {
    const ch = text[j]
    if (ch === '\\') {
      j++
      continue
    }
    if (ch === '{') depth++
    else if (ch === '}' && --depth === 0) return { inner: text.slice(open + 1, j), length: j - open + 1 }
  }
  return { inner: text.slice(open + 1), length: text.length - open }
}
