import { contentHash, type LspHierarchyItem } from '@codeseam/lsp'
import type * as vscode from 'vscode'

import type { Containment } from '../containment.js'
import { fromVsRange } from './positions.js'
import { symbolKind } from './symbols.js'

/** Which hierarchy an item belongs to; VS Code's items of one cannot continue the other. */
export type HierarchyFamily = 'call' | 'type'

/** What the adapter keeps in `LspHierarchyItem.data` to find the VS Code item again. */
export interface HierarchyItemData {
  readonly family: HierarchyFamily
}

/**
 * A VS Code hierarchy item as a seam item. The id is derived from what identifies the symbol (family,
 * file, name, kind, selection range), so the same symbol gets the same id across calls.
 */
export function toHierarchyItem(
  family: HierarchyFamily,
  item: vscode.CallHierarchyItem | vscode.TypeHierarchyItem,
  containment: Containment,
): LspHierarchyItem | undefined {
  const kept = containment.keep(item.uri)
  if (kept === undefined) return undefined
  const selectionRange = fromVsRange(item.selectionRange)
  const kind = symbolKind(item.kind)
  const id = `${family}:${contentHash(JSON.stringify([kept.path, item.name, kind, selectionRange])).slice(0, 24)}`
  const data: HierarchyItemData = { family }
  return {
    id,
    name: item.name,
    kind,
    ...(item.detail ? { detail: item.detail } : {}),
    ...kept,
    range: fromVsRange(item.range),
    selectionRange,
    data,
  }
}
