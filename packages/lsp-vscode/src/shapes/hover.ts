import type { LspHover, LspSignatureHelp, LspSignatureInformation } from '@codeseam/lsp'
import type * as vscode from 'vscode'

import { fromVsRange } from './positions.js'
import { markdownText } from './text.js'

/**
 * Merges the hovers every provider returned (`executeHoverProvider` answers an array) into one markdown
 * text. Parts may be `MarkdownString`s, plain strings (markdown by definition of `MarkedString`) or
 * `{ language, value }` code blocks. The range is the first hover's.
 */
export function toHover(hovers: ReadonlyArray<vscode.Hover> | undefined | null): LspHover | null {
  if (!hovers || hovers.length === 0) return null
  const parts: string[] = []
  for (const hover of hovers) {
    const contents = Array.isArray(hover.contents) ? hover.contents : [hover.contents as vscode.MarkdownString]
    for (const part of contents) {
      const text = markdownText(part as vscode.MarkdownString | string | { language: string; value: string })
      // VS Code's appendCodeblock wraps fences in blank lines; they carry nothing.
      if (text !== undefined && text.trim() !== '') parts.push(text.replace(/^\n+|\n+$/g, ''))
    }
  }
  if (parts.length === 0) return null
  const range = hovers.find((h) => h.range !== undefined)?.range
  return { contents: parts.join('\n\n---\n\n'), format: 'markdown', ...(range ? { range: fromVsRange(range) } : {}) }
}

/** Signature help with parameter labels resolved to text (VS Code allows `[start, end]` offsets into the label). */
export function toSignatureHelp(help: vscode.SignatureHelp | undefined | null): LspSignatureHelp | null {
  if (!help || !Array.isArray(help.signatures) || help.signatures.length === 0) return null
  const signatures: LspSignatureInformation[] = help.signatures.map((signature) => {
    const documentation = markdownText(signature.documentation)
    return {
      label: signature.label,
      ...(documentation !== undefined ? { documentation } : {}),
      parameters: (signature.parameters ?? []).map((parameter) => {
        const label = typeof parameter.label === 'string' ? parameter.label : signature.label.slice(parameter.label[0], parameter.label[1])
        const doc = markdownText(parameter.documentation)
        return { label, ...(doc !== undefined ? { documentation: doc } : {}) }
      }),
      ...(typeof signature.activeParameter === 'number' ? { activeParameter: signature.activeParameter } : {}),
    }
  })
  return { signatures, activeSignature: help.activeSignature ?? 0, activeParameter: help.activeParameter ?? 0 }
}
