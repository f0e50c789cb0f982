import type { LspCompletionItem, LspInlayHint, LspInlayHintLabelPart } from '@codeseam/lsp'
import type * as vscode from 'vscode'

import type { Containment } from '../containment.js'
import { toLocation } from './locations.js'
import { fromVsPosition, fromVsRange } from './positions.js'
import { markdownText } from './text.js'

/** VS Code's CompletionItemKind counts from 0 (Text = 0) and differs from the protocol's after Keyword. */
const completionKinds: ReadonlyArray<string> = [
  'text',
  'method',
  'function',
  'constructor',
  'field',
  'variable',
  'class',
  'interface',
  'module',
  'property',
  'unit',
  'value',
  'enum',
  'keyword',
  'snippet',
  'color',
  'file',
  'reference',
  'folder',
  'enumMember',
  'constant',
  'struct',
  'event',
  'operator',
  'typeParameter',
  'user',
  'issue',
]

/** A completion list or array as seam items; labels may be `CompletionItemLabel`s, insert texts `SnippetString`s. */
export function toCompletion(answer: vscode.CompletionList | ReadonlyArray<vscode.CompletionItem> | undefined | null): {
  items: LspCompletionItem[]
  isIncomplete: boolean
} {
  if (!answer) return { items: [], isIncomplete: false }
  const list = Array.isArray(answer)
    ? { items: answer as ReadonlyArray<vscode.CompletionItem>, isIncomplete: false }
    : (answer as vscode.CompletionList)
  const items = (list.items ?? []).map((item): LspCompletionItem => {
    const label = typeof item.label === 'string' ? item.label : item.label.label
    const labelDetail = typeof item.label === 'string' ? undefined : [item.label.detail, item.label.description].filter(Boolean).join(' ')
    const detail = item.detail ?? (labelDetail || undefined)
    const documentation = markdownText(item.documentation)
    const insertText =
      item.insertText === undefined ? undefined : typeof item.insertText === 'string' ? item.insertText : item.insertText.value
    const kind = item.kind === undefined ? undefined : completionKinds[item.kind]
    return {
      label,
      ...(kind !== undefined ? { kind } : {}),
      ...(detail !== undefined ? { detail } : {}),
      ...(documentation !== undefined ? { documentation } : {}),
      ...(insertText !== undefined ? { insertText } : {}),
      ...(item.sortText !== undefined ? { sortText: item.sortText } : {}),
    }
  })
  return { items, isIncomplete: list.isIncomplete === true }
}

/** VS Code's InlayHintKind: Type = 1, Parameter = 2. */
const hintKinds: Readonly<Record<number, 'type' | 'parameter'>> = { 1: 'type', 2: 'parameter' }

/** Inlay hints; label parts keep their tooltip text and a location when it is inside the root. */
export function toInlayHints(answer: ReadonlyArray<vscode.InlayHint> | undefined | null, containment: Containment): LspInlayHint[] {
  if (!answer) return []
  return answer.map((hint): LspInlayHint => {
    const label: string | LspInlayHintLabelPart[] =
      typeof hint.label === 'string'
        ? hint.label
        : hint.label.map((part) => {
            const tooltip = markdownText(part.tooltip)
            const location = part.location ? toLocation(part.location, containment) : undefined
            return { value: part.value, ...(tooltip !== undefined ? { tooltip } : {}), ...(location ? { location } : {}) }
          })
    const kind = hint.kind === undefined ? undefined : hintKinds[hint.kind]
    return {
      position: fromVsPosition(hint.position),
      label,
      ...(kind ? { kind } : {}),
      ...(hint.paddingLeft !== undefined ? { paddingLeft: hint.paddingLeft } : {}),
      ...(hint.paddingRight !== undefined ? { paddingRight: hint.paddingRight } : {}),
      ...(hint.textEdits && hint.textEdits.length > 0
        ? { textEdits: hint.textEdits.map((e) => ({ range: fromVsRange(e.range), newText: e.newText })) }
        : {}),
    }
  })
}
