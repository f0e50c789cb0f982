import type { LspLocation } from '@codeseam/lsp'
import type * as vscode from 'vscode'

import type { Containment } from '../containment.js'
import { fromVsRange, isVsRange } from './positions.js'

/** What the navigation commands answer: a Location, a LocationLink, or arrays of either (or nothing). */
export type VsNavigationAnswer =
  vscode.Location | vscode.LocationLink | ReadonlyArray<vscode.Location | vscode.LocationLink> | undefined | null

/** Whether a value is a `LocationLink` (an interface in VS Code: only its shape tells). */
export function isLocationLink(value: unknown): value is vscode.LocationLink {
  const link = value as { targetUri?: unknown; targetRange?: unknown } | null
  return link !== null && typeof link === 'object' && link.targetUri !== undefined && isVsRange(link.targetRange)
}

/**
 * Normalizes Locations and LocationLinks into seam locations, dropping (and counting) anything outside the
 * root. A link keeps its target selection and origin ranges; its `range` is the full target range.
 */
export function toLocations(answer: VsNavigationAnswer, containment: Containment): LspLocation[] {
  if (answer === undefined || answer === null) return []
  const items = Array.isArray(answer) ? answer : [answer as vscode.Location | vscode.LocationLink]
  const out: LspLocation[] = []
  const seen = new Set<string>()
  for (const item of items) {
    const location = toLocation(item, containment)
    if (location === undefined) continue
    const key = `${location.path}:${location.range.start.line}:${location.range.start.character}:${location.range.end.line}:${location.range.end.character}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(location)
  }
  return out
}

/** One Location or LocationLink as a seam location, or undefined when it is dropped. */
export function toLocation(item: vscode.Location | vscode.LocationLink, containment: Containment): LspLocation | undefined {
  if (isLocationLink(item)) {
    const kept = containment.keep(item.targetUri)
    if (kept === undefined) return undefined
    return {
      ...kept,
      range: fromVsRange(item.targetRange),
      ...(item.targetSelectionRange ? { targetSelectionRange: fromVsRange(item.targetSelectionRange) } : {}),
      ...(item.originSelectionRange ? { originSelectionRange: fromVsRange(item.originSelectionRange) } : {}),
    }
  }
  const kept = containment.keep(item.uri)
  if (kept === undefined) return undefined
  return { ...kept, range: fromVsRange(item.range) }
}
