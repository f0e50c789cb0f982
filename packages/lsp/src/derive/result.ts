// The derived answer's parts: its items and locations, and the metadata built from the native answers'.
import type { LspHierarchyItem, LspLocation, LspResultMeta } from '../vocabulary.js'
import type { DerivationFiles, FlatSymbol } from './symbols.js'

export function unique(items: LspHierarchyItem[]): LspHierarchyItem[] {
  return [...new Map(items.map((item) => [item.id, item])).values()]
}

export function locationOf(node: FlatSymbol): LspLocation {
  return { uri: node.uri, path: node.path, range: node.symbol.selectionRange }
}

/** The derived answer's metadata: the native answers' state, and how it was derived. */
export function derivedMeta(files: DerivationFiles, unresolved: ReadonlyArray<string>, truncated: boolean, path: string): LspResultMeta {
  const metas = files.answers.map((answer) => answer.meta)
  // The asked file's version and hash, as the first native answer about it saw them.
  const own = files.answers.find((answer) => answer.path === path)?.meta
  const rank = { ready: 0, indexing: 1, degraded: 2 } as const
  const coverage = metas.flatMap((meta) => (meta.coverage === undefined ? [] : [meta.coverage]))
  const incomplete = coverage.find((c) => !c.complete)
  return {
    providerId: metas[0]?.providerId ?? 'derived',
    status: metas.reduce<LspResultMeta['status']>((worst, meta) => (rank[meta.status] > rank[worst] ? meta.status : worst), 'ready'),
    warm: metas.every((meta) => meta.warm),
    truncated: truncated || metas.some((meta) => meta.truncated),
    ...(own?.documentVersion === undefined ? {} : { documentVersion: own.documentVersion }),
    ...(own?.contentHash === undefined ? {} : { contentHash: own.contentHash }),
    ...(metas.some((meta) => meta.stale === true) ? { stale: true } : {}),
    ...(coverage.length > 0 ? { coverage: incomplete ?? coverage[coverage.length - 1]! } : {}),
    derived: { from: [...files.asked], ...(unresolved.length > 0 ? { unresolved: [...unresolved] } : {}) },
    elapsedMs: 0,
  }
}
