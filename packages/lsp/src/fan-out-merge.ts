import { LspError } from './errors.js'
import type {
  LspFilesSkipped,
  LspLibraryLocation,
  LspQueryResult,
  LspResultMeta,
  LspSearchCoverage,
  LspWorkspaceSymbol,
} from './vocabulary.js'

/*
 * The merge of a fan-out's answers: one answer whose metadata sums what each part searched, dropped and
 * skipped, so a merged answer never hides what one provider left out.
 */

/** Files over a per-file limit, summed by limit (the ceiling is the host's, the same in every part). */
function mergeSkipped(parts: ReadonlyArray<{ readonly filesSkipped?: ReadonlyArray<LspFilesSkipped> }>): {
  filesSkipped?: ReadonlyArray<LspFilesSkipped>
} {
  const skipped = new Map<LspFilesSkipped['limit'], LspFilesSkipped>()
  for (const entry of parts.flatMap((c) => c.filesSkipped ?? [])) {
    skipped.set(entry.limit, { ...entry, count: (skipped.get(entry.limit)?.count ?? 0) + entry.count })
  }
  return skipped.size === 0 ? {} : { filesSkipped: [...skipped.values()] }
}

/** Coverages summed: what every part searched, found, left out and skipped; complete when every part is. */
export function sumCoverage(parts: ReadonlyArray<LspSearchCoverage>): LspSearchCoverage {
  const notOpened = parts.reduce((sum, c) => sum + (c.filesNotSearched ?? 0), 0)
  const roots = parts.flatMap((c) => c.rootsNotSearched ?? [])
  // A part that searched only what reaches the target makes the sum one too; a part that searched everything counts all it found.
  const reaching = parts.some((c) => c.searched !== undefined)
    ? {
        searched: {
          kind: 'projectsReachingTarget' as const,
          projects: parts.reduce((sum, c) => sum + (c.searched?.projects ?? c.projectsFound), 0),
        },
      }
    : {}
  return {
    projectsSearched: parts.reduce((sum, c) => sum + c.projectsSearched, 0),
    projectsFound: parts.reduce((sum, c) => sum + c.projectsFound, 0),
    ...(notOpened > 0 ? { filesNotSearched: notOpened } : {}),
    ...(roots.length > 0 ? { rootsNotSearched: roots } : {}),
    ...mergeSkipped(parts),
    ...reaching,
    complete: parts.every((c) => c.complete),
  }
}

/** The search coverage of a fan-out: the sum of its parts (absent when no part reports one). */
function mergeCoverage(results: ReadonlyArray<LspQueryResult>): { coverage?: LspSearchCoverage } {
  const parts = results.flatMap((r) => (r.meta.coverage === undefined ? [] : [r.meta.coverage]))
  return parts.length === 0 ? {} : { coverage: sumCoverage(parts) }
}

/**
 * What each answer of a fan-out says it left out of the workspace: the dropped count summed, the library
 * locations it named kept (each once), so a merged answer never hides what one provider dropped.
 */
function mergeDropped(
  results: ReadonlyArray<LspQueryResult>,
): Pick<LspResultMeta, 'droppedOutsideWorkspace' | 'libraryLocations' | 'disk'> {
  const dropped = results.reduce((sum, r) => sum + (r.meta.droppedOutsideWorkspace ?? 0), 0)
  const libraries = new Map<string, LspLibraryLocation>()
  for (const r of results) for (const location of r.meta.libraryLocations ?? []) libraries.set(JSON.stringify(location), location)
  const disks = results.flatMap((r) => (r.meta.disk === undefined ? [] : [r.meta.disk]))
  const locationsDropped = disks.reduce((sum, d) => sum + (d.locationsDropped ?? 0), 0)
  return {
    ...(dropped > 0 ? { droppedOutsideWorkspace: dropped } : {}),
    ...(libraries.size > 0 ? { libraryLocations: [...libraries.values()] } : {}),
    ...(disks.length > 0
      ? {
          disk: {
            filesChanged: disks.reduce((sum, d) => sum + d.filesChanged, 0),
            method: disks.some((d) => d.method === 'scan') ? 'scan' : 'watch',
            ...(locationsDropped > 0 ? { locationsDropped } : {}),
          },
        }
      : {}),
  }
}

/** Merges the answers of a fan-out. Only workspace-scoped kinds reach here. */
export function mergeFanOut(
  results: ReadonlyArray<LspQueryResult>,
  failures: ReadonlyArray<{ providerId: string; code: string; message: string }>,
): LspQueryResult {
  const first = results[0]
  if (first === undefined) throw new Error('mergeFanOut needs at least one result')
  const statusRank = { ready: 0, degraded: 1, indexing: 2 } as const
  const meta: LspResultMeta = {
    providerId: results.map((r) => r.meta.providerId).join(','),
    status: results.reduce<LspResultMeta['status']>(
      (worst, r) => (statusRank[r.meta.status] > statusRank[worst] ? r.meta.status : worst),
      failures.length > 0 ? 'degraded' : 'ready',
    ),
    warm: results.every((r) => r.meta.warm),
    truncated: results.some((r) => r.meta.truncated),
    elapsedMs: 0,
    ...mergeCoverage(results),
    ...mergeDropped(results),
    ...(failures.length > 0 ? { failures } : {}),
  }
  if (first.kind === 'workspaceSymbols') {
    return {
      kind: 'workspaceSymbols',
      symbols: uniqueSymbols(results.flatMap((r) => (r.kind === 'workspaceSymbols' ? r.symbols : []))),
      meta,
    }
  }
  if (first.kind === 'diagnostics') {
    const all = results.flatMap((r) => (r.kind === 'diagnostics' ? [r] : []))
    const eligible = all.every((r) => r.coverage.eligible !== undefined)
      ? all.reduce((sum, r) => sum + (r.coverage.eligible ?? 0), 0)
      : undefined
    return {
      kind: 'diagnostics',
      files: all.flatMap((r) => r.files),
      coverage: {
        analysed: all.flatMap((r) => r.coverage.analysed),
        ...(eligible === undefined ? {} : { eligible }),
        ...mergeSkipped(all.map((r) => r.coverage)),
        ...(all.some((r) => (r.coverage.notAnalysed?.length ?? 0) > 0)
          ? { notAnalysed: all.flatMap((r) => r.coverage.notAnalysed ?? []) }
          : {}),
        complete: failures.length === 0 && all.every((r) => r.coverage.complete),
      },
      meta,
    }
  }
  throw new LspError('MALFORMED_RESPONSE', `a fan-out produced a "${first.kind}" result, which cannot be merged`)
}

/**
 * Workspace symbols without repeats: the same name and kind at the same range of the same file is one symbol,
 * whether one server listed it twice or two answers of a fan-out both hold it. The first occurrence is kept.
 */
export function uniqueSymbols(symbols: ReadonlyArray<LspWorkspaceSymbol>): ReadonlyArray<LspWorkspaceSymbol> {
  const seen = new Set<string>()
  const kept: LspWorkspaceSymbol[] = []
  for (const symbol of symbols) {
    const { start, end } = symbol.location.range
    const key = JSON.stringify([symbol.location.path, start.line, start.character, end.line, end.character, symbol.name, symbol.kind])
    if (seen.has(key)) continue
    seen.add(key)
    kept.push(symbol)
  }
  return kept.length === symbols.length ? symbols : kept
}
