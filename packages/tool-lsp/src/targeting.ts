import { statSync } from 'node:fs'

import {
  displayPath,
  extensionOf,
  isLspError,
  LspError,
  normalizeRoot,
  relativizeText,
  resolveFile,
  resolveTarget,
  toModelPosition,
  type LspFilesSkipped,
  type LspResultMeta,
  type LspTarget,
  type ResolvedFile,
  type ResolvedTarget,
} from '@codeseam/lsp'

import type { ToolContext } from './definition.js'
import { plural } from './render.js'
import type { ReadinessOutput, ResolvedTargetOutput, TargetInput } from './schemas.js'

/**
 * Target and file resolution as tools need it: the seam's resolution, confined to the roots the harness
 * allowed, with "no server for this language" turned into an error that says what to install.
 */

/**
 * Servers no backend has built in, by extension: what to tell a model (and its user) when none is configured.
 * Languages a backend does build in (a local host's TypeScript, Python, Go, Rust, C/C++, Java, Kotlin, Ruby, …) are never listed here:
 * their provider is registered even when its server is missing, and its UNAVAILABLE error and status carry the
 * backend's own install command (`data.install`, `install`).
 */
const knownServers: Readonly<Record<string, string>> = {
  '.cs': 'C#: install csharp-ls (dotnet tool install -g csharp-ls) and add a profile for it',
  '.php': 'PHP: install intelephense (npm i -g intelephense) and add a profile for it',
  '.lua': 'Lua: install lua-language-server and add a profile for it',
  '.swift': 'Swift: sourcekit-lsp ships with the Swift toolchain; add a profile for it',
}

/** What to do about a file type no provider serves. */
export function installHint(path: string): string {
  const extension = extensionOf(path)
  if (extension === undefined) return 'the file has no extension, so no language server can be chosen for it'
  return knownServers[extension] ?? `configure a language server profile for "${extension}" files`
}

/** Whether a path is a folder; false for anything stat refuses (missing, a file on the way, a name too long). */
function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
  } catch {
    return false
  }
}

/** Fails with UNAVAILABLE (and what to install) when no provider owns the file. */
export function requireProvider(context: ToolContext, absolutePath: string, shownPath: string): void {
  if (context.lsp.providerFor(absolutePath) !== undefined) return
  if (isFolder(absolutePath)) {
    const message = `"${shownPath}" is a folder, not a file: name a file in it (or search the workspace with a symbol query)`
    throw new LspError('INVALID_ARGUMENT', message, { data: { path: shownPath, issues: [{ path: 'path', message }] } })
  }
  const extension = extensionOf(absolutePath) ?? '(none)'
  const served = [...new Set(context.lsp.providers().flatMap((p) => Object.keys(p.extensions)))].sort()
  throw new LspError(
    'UNAVAILABLE',
    `no language server handles ${extension} files, so ${shownPath} cannot be analysed (served here: ${served.join(' ') || 'nothing'}). To fix: ${installHint(absolutePath)}. Until then use text search.`,
    { data: { extension, served } },
  )
}

function allowed(context: ToolContext, root: string): boolean {
  return context.roots.some((r) => normalizeRoot(r.root) === normalizeRoot(root))
}

function refuseRoot(context: ToolContext, path: string): LspError {
  return new LspError(
    'OUTSIDE_WORKSPACE',
    `"${path}" is not in a workspace this tool may use (${context.roots.map((r) => r.id).join(', ') || 'none'})`,
  )
}

/** Resolves a file inside the allowed roots. */
export async function resolveToolFile(context: ToolContext, path: string, rootId?: string): Promise<ResolvedFile> {
  const file = await resolveFile(context.lsp, path, rootId)
  if (!allowed(context, file.workspace.root)) throw refuseRoot(context, path)
  return file
}

/**
 * Resolves a target inside the allowed roots; checks a provider serves it before asking for symbols. The
 * file is located once, by the seam: the root and provider checks run on what it located, before it is read.
 */
export async function resolveToolTarget(
  context: ToolContext,
  target: TargetInput,
  options: { readonly firstMatch?: boolean | undefined } = {},
): Promise<ResolvedTarget> {
  // Decoded optional fields may be present as undefined; the seam's target type wants them absent.
  const clean = Object.fromEntries(Object.entries(target).filter(([, value]) => value !== undefined)) as unknown as LspTarget
  return resolveTarget(context.lsp, clean, {
    firstMatch: options.firstMatch === true,
    signal: context.signal,
    accept: (file) => {
      if (!allowed(context, file.workspace.root)) throw refuseRoot(context, target.path)
      requireProvider(context, file.path, file.displayPath)
    },
  })
}

/** The resolved target as results show it (1-based, workspace-relative). */
export function targetOutput(resolved: ResolvedTarget): ResolvedTargetOutput {
  const position = toModelPosition(resolved.position)
  return {
    path: resolved.displayPath,
    rootId: resolved.rootId,
    line: position.line,
    column: position.column,
    ...(resolved.symbol === undefined ? {} : { symbol: resolved.symbol.qualifiedName, kind: resolved.symbol.kind }),
    resolvedBy: resolved.resolvedBy,
  }
}

/** A fan-out failure because every server slot was busy (limits.maxServers): a gap in this answer, not a missing install. */
function isBusyFailure(failure: { readonly code: string; readonly message: string }): boolean {
  return failure.code === 'UNAVAILABLE' && failure.message.includes('limits.maxServers')
}

/** Fan-out failures of providers that are not installed: a coverage gap, not trouble with this answer. */
function onlyMissingServers(meta: LspResultMeta): boolean {
  return (
    meta.failures !== undefined && meta.failures.length > 0 && meta.failures.every((f) => f.code === 'UNAVAILABLE' && !isBusyFailure(f))
  )
}

/**
 * Readiness from result metadata. A fan-out the seam marked degraded only because some language has no
 * installed server is reported ready (the gap is named in the notice instead): otherwise every workspace
 * query on a machine without, say, clangd would look untrustworthy.
 */
export function readinessOf(meta: LspResultMeta): ReadinessOutput {
  const status = meta.status === 'degraded' && onlyMissingServers(meta) ? 'ready' : meta.status
  return {
    status,
    warm: meta.warm,
    provider: meta.providerId,
    ...(meta.stale === true ? { stale: true } : {}),
    ...(meta.truncated ? { providerTruncated: true } : {}),
  }
}

/** Whether a fan-out answer is complete apart from languages without an installed server. */
export function completeButForMissingServers(meta: LspResultMeta): boolean {
  return onlyMissingServers(meta)
}

/** The worst readiness of several answers (a fan-out over roots, a hierarchy walk). */
export function worstReadiness(all: ReadonlyArray<ReadinessOutput>): ReadinessOutput {
  const rank = { ready: 0, degraded: 1, indexing: 2 } as const
  const first = all[0]
  if (first === undefined) return { status: 'ready', warm: true, provider: 'none' }
  return all.reduce((worst, r) => ({
    status: rank[r.status] > rank[worst.status] ? r.status : worst.status,
    warm: worst.warm && r.warm,
    provider: [...new Set([...worst.provider.split(','), ...r.provider.split(',')])].join(','),
    ...(worst.stale === true || r.stale === true ? { stale: true } : {}),
    ...(worst.providerTruncated === true || r.providerTruncated === true ? { providerTruncated: true } : {}),
  }))
}

/** Why a part of the workspace was not searched because every server slot was taken. */
export const busyServersReason = 'every language server busy under limits.maxServers'

/** A part of the workspace an answer did not search, and why (e.g. a root whose query failed). */
export interface SearchGap {
  /** What was not searched: a root id, `<root id>/<folder>`, or a server for a root. */
  readonly where: string
  readonly why: string
}

/** One root's answer metadata, for a notice over one or several roots. */
export interface RootMeta {
  readonly meta: LspResultMeta
  /** The root's id (names the roots and folders an incomplete answer did not search). */
  readonly rootId?: string | undefined
  /** This root's own answer is empty (default: the whole answer's emptiness). */
  readonly empty?: boolean | undefined
  /**
   * Asking again cannot change this root's answer (diagnostics the server computed for every file as it is
   * now): no "had just started … ask again" advice, however cold the server.
   */
  readonly settled?: boolean | undefined
}

/** `<root id>/<folder>` for a folder relative to the root ('.' is the root itself). */
function folderLabel(rootId: string | undefined, folder: string): string {
  const inner = folder === '.' || folder === '' ? undefined : folder.replace(/\\/g, '/')
  if (rootId === undefined) return inner ?? 'the workspace root'
  return inner === undefined ? rootId : `${rootId}/${inner}`
}

function serverName(providerId: string): string {
  return providerId.replace(/^local:/, '')
}

/** A short, one-line reason from an error message (the first line, at most 200 characters). */
export function shortReason(message: string): string {
  const line = message.split('\n')[0]!.trim()
  return line.length <= 200 ? line : `${line.slice(0, 199)}…`
}

/** Why a root whose query failed was not searched: `CODE: short reason` (workspace-relative), or every server busy. */
export function rootFailureReason(error: LspError, root: string): string {
  if (isBusyFailure(error)) return busyServersReason
  return `${error.code}: ${shortReason(relativizeText(error.message, root))}`
}

/** "not searched: a, b (why); c (other why)": gaps grouped by reason, in order of first appearance. */
function renderGaps(gaps: ReadonlyArray<SearchGap>): string | undefined {
  const byWhy = new Map<string, string[]>()
  for (const gap of gaps) {
    const list = byWhy.get(gap.why) ?? []
    if (!list.includes(gap.where)) list.push(gap.where)
    byWhy.set(gap.why, list)
  }
  if (byWhy.size === 0) return undefined
  return `not searched: ${[...byWhy.entries()].map(([why, where]) => `${where.join(', ')} (${why})`).join('; ')}`
}

/**
 * How much of the workspace a workspace-wide answer searched, when not all of it (complete coverage adds
 * nothing): projects searched of those found, files in no project left out, and the roots or folders not
 * searched, with the gaps the caller adds (roots whose query failed).
 */
function coverageNote(answers: ReadonlyArray<RootMeta>, extraGaps: ReadonlyArray<SearchGap>): string | undefined {
  const gaps: SearchGap[] = []
  let searched = 0
  let found = 0
  let notOpened = 0
  let incomplete = false
  // Answers that searched only the projects that can reach the target (RFC 0035): how many those were.
  let reaching: number | undefined
  const skipped: LspFilesSkipped[] = []
  for (const { meta, rootId } of answers) {
    const coverage = meta.coverage
    if (coverage === undefined) continue
    searched += coverage.projectsSearched
    found += coverage.projectsFound
    notOpened += coverage.filesNotSearched ?? 0
    skipped.push(...(coverage.filesSkipped ?? []))
    incomplete ||= !coverage.complete
    if (coverage.searched !== undefined) reaching = (reaching ?? 0) + coverage.searched.projects
    for (const folder of coverage.rootsNotSearched ?? []) gaps.push({ where: folderLabel(rootId, folder), why: busyServersReason })
  }
  for (const { meta, rootId } of answers) {
    for (const failure of meta.failures ?? []) {
      if (!isBusyFailure(failure)) continue
      const server = serverName(failure.providerId)
      gaps.push({ where: rootId === undefined ? `the ${server} server` : `${server} for ${rootId}`, why: busyServersReason })
    }
  }
  gaps.push(...extraGaps)
  const parts: string[] = []
  // Every project, and the files of no project that can reach the target (the others left unopened: RFC 0035, amended).
  if (reaching !== undefined && reaching >= found && !incomplete)
    parts.push(`searched every project (${found}) and the files of no project that can reference the target (the others cannot)`)
  else if (reaching !== undefined)
    parts.push(
      `${incomplete && searched < reaching ? `searched ${searched} of the` : 'searched the'} ${plural(reaching, 'project')} that can reference the target, of ${found} (the others cannot; they load in the background)`,
    )
  else if (incomplete && searched < found) parts.push(`searched ${searched} of ${plural(found, 'project')}`)
  if (notOpened > 0) {
    parts.push(
      `${plural(notOpened, 'file')} in no project ${notOpened === 1 ? 'was' : 'were'} not searched (over the open-document limit: raise limits.maxOpenDocuments)`,
    )
  }
  const skippedText = skippedFilesNote(skipped)
  if (skippedText !== undefined) parts.push(skippedText)
  const gapText = renderGaps(gaps)
  if (gapText !== undefined) parts.push(gapText)
  if (parts.length === 0 && incomplete) parts.push('the search did not cover the whole workspace')
  return parts.length === 0 ? undefined : parts.join('; ')
}

/** A byte ceiling as people read it: "4 MB", "512 KB". */
function formatCeiling(bytes: number): string {
  const MiB = 1024 * 1024
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MB`
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`
  return `${bytes} bytes`
}

/**
 * Files left out because they break a per-file limit (RFC 0013), by limit: "2 files skipped: over 4 MB
 * (limits.maxFileBytes); 1 file skipped: binary content". Undefined when none was.
 */
export function skippedFilesNote(entries: ReadonlyArray<LspFilesSkipped>): string | undefined {
  const byLimit = new Map<LspFilesSkipped['limit'], LspFilesSkipped>()
  for (const entry of entries) {
    byLimit.set(entry.limit, { ...entry, count: (byLimit.get(entry.limit)?.count ?? 0) + entry.count })
  }
  const parts = [...byLimit.values()].map(({ limit, count, ceiling }) => {
    const why =
      limit === 'maxFileBytes'
        ? `over ${formatCeiling(ceiling ?? 0)} (limits.maxFileBytes)`
        : limit === 'maxLineLength'
          ? `a line over ${ceiling ?? 0} characters, minified (limits.maxLineLength)`
          : limit === 'notUtf8'
            ? 'text that is not UTF-8'
            : 'binary content'
    return `${plural(count, 'file')} skipped: ${why}`
  })
  return parts.length === 0 ? undefined : parts.join('; ')
}

/**
 * A notice for an answer that is legitimately empty or short but should not be trusted as "nothing
 * exists": the server is still indexing, answered cold, some providers failed, or the search did not cover
 * the whole workspace (`meta.coverage`; complete coverage adds no text).
 */
export function noticeFor(
  meta: LspResultMeta,
  empty: boolean,
  what: string,
  rootId?: string,
  at?: Pick<ResolvedTarget, 'position' | 'lines'>,
): string | undefined {
  // An empty answer where the text holds nothing to ask about is the true answer: asking again cannot change it.
  const nothing = empty && at !== undefined ? nothingAt(at) : undefined
  if (nothing === undefined) return noticeForRoots([{ meta, rootId }], empty, what)
  return joinNotices(
    `there is no identifier at the target: ${nothing} (checked in the file's text), so the server has no ${what} to give there and asking again will not change that; aim with symbol, or matchText on the name itself.`,
    noticeForRoots([{ meta, rootId, settled: true }], empty, what, [], { readiness: false }),
  )
}

/**
 * Why a position holds nothing a server could answer about, read from the file's text: a blank line, or
 * whitespace touching no token on either side. Undefined when a token touches it (an identifier, and also an
 * operator, a string or a comment: servers answer on some of those, e.g. an overloaded operator, an import path
 * or a doc-comment link).
 */
export function nothingAt(at: Pick<ResolvedTarget, 'position' | 'lines'>): string | undefined {
  const { line, character } = at.position
  const text = at.lines.lineText(line)
  if (text.trim() === '') return `line ${line + 1} is blank`
  const blank = (c: string | undefined) => c === undefined || /\s/u.test(c)
  if (blank(text[character - 1]) && blank(text[character])) {
    return `line ${line + 1}, column ${character + 1} is ${character >= text.length ? 'past the end of the line' : 'whitespace'}, touching no token`
  }
  return undefined
}

/**
 * {@link noticeFor} over the answers of several roots (a search over every open workspace), each said once;
 * `gaps` are parts the caller could not search at all (a root whose query failed).
 */
export function noticeForRoots(
  answers: ReadonlyArray<RootMeta>,
  empty: boolean,
  what: string,
  gaps: ReadonlyArray<SearchGap> = [],
  options: { readonly readiness?: boolean } = {},
): string | undefined {
  const notes: string[] = []
  const metas = answers.map((a) => a.meta)
  // An answer that lands in a library outside the workspace is not empty: it is named below.
  if (metas.some((m) => (m.libraryLocations?.length ?? 0) > 0)) empty = false
  if (options.readiness === false) {
    // The caller knows asking again cannot change the answer (nothing at the position): no readiness advice.
  } else if (metas.some((m) => m.status === 'indexing')) {
    notes.push(
      `the language server is still indexing the workspace, so ${what} may be incomplete${empty ? ' (an empty answer does not mean there are none)' : ''}; ask again once code_status shows it ready`,
    )
  } else {
    // Only where asking again can change the answer: never for a warm server, nor for a settled answer.
    const coldEmpty = answers.filter(
      (a) => (a.empty ?? empty) && !a.meta.warm && a.settled !== true && (a.meta.libraryLocations?.length ?? 0) === 0,
    )
    const where = coldEmpty.map((a) => a.rootId).filter((id): id is string => id !== undefined)
    if (coldEmpty.length > 0 && answers.length > 1 && where.length === coldEmpty.length) {
      // Over several roots, a cold root that found nothing is named even when the others found something.
      notes.push(
        `the language server had just started and found no ${what} in ${where.join(', ')}; that may mean the project was not loaded yet, so ask again before concluding there are none there`,
      )
    } else if (coldEmpty.length > 0) {
      notes.push(
        `the language server had just started; an empty answer may mean the project was not loaded yet, so ask again before concluding there are no ${what}`,
      )
    }
  }
  if (metas.some((m) => m.stale === true)) notes.push('the file changed while the server answered; positions may be off by a few lines')
  if (metas.some((m) => m.truncated)) notes.push(`the language server cut its answer short, so there may be more ${what} than counted here`)
  const coverage = coverageNote(answers, gaps)
  if (coverage !== undefined) notes.push(coverage)
  const several = answers.length > 1
  const failed = new Set<string>()
  const missing = new Set<string>()
  for (const { meta, rootId } of answers) {
    for (const f of meta.failures ?? []) {
      if (isBusyFailure(f)) continue
      const who = several && rootId !== undefined ? `${f.providerId} for ${rootId}` : f.providerId
      if (f.code === 'UNAVAILABLE') missing.add(`${serverName(f.providerId)} (${f.message.replace(/^.*?unavailable: /, '')})`)
      else failed.add(`${who} (${f.code}: ${f.message})`)
    }
  }
  if (failed.size > 0) notes.push(`some servers failed and are missing from this answer: ${[...failed].join('; ')}`)
  if (missing.size > 0) notes.push(`not covered, no server installed: ${[...missing].join('; ')}`)
  const dropped = metas.reduce((sum, m) => sum + (m.droppedOutsideWorkspace ?? 0), 0)
  if (dropped > 0) notes.push(`${dropped} result(s) outside the workspace (libraries, generated files) were left out`)
  const gone = metas.reduce((sum, m) => sum + (m.disk?.locationsDropped ?? 0), 0)
  if (gone > 0) notes.push(`${gone} result(s) in files that no longer exist on disk were left out (the server still knew them)`)
  const library = metas.flatMap((m) => m.libraryLocations ?? [])
  if (library.length > 0) {
    const shownLibrary = library
      .slice(0, 5)
      .map((l) => `${l.path}:${l.range.start.line + 1}:${l.range.start.character + 1} (${l.library})`)
      .join('; ')
    notes.push(
      `${library.length === 1 ? 'a result is' : `${library.length} results are`} in a library outside the workspace, named here but not read or editable: ${shownLibrary}${library.length > 5 ? '; …' : ''}`,
    )
  }
  const derived = derivedNote(metas)
  if (derived !== undefined) notes.push(derived)
  const source = sourceNote(metas)
  if (source !== undefined) notes.push(source)
  return notes.length === 0 ? undefined : `${notes.join('. ')}.`
}

/** Joins optional notices. */
export function joinNotices(...notices: ReadonlyArray<string | undefined>): string | undefined {
  const present = notices.filter((n): n is string => n !== undefined && n.length > 0)
  return present.length === 0 ? undefined : present.join(' ')
}

/** Workspace-relative display path of an absolute path under `root`. */
export function shown(root: string, path: string): string {
  return displayPath(root, path)
}

/** True when the error means the provider lacks the operation (used only for optional enrichments). */
export function isUnsupported(error: unknown): boolean {
  return isLspError(error, 'UNSUPPORTED_OPERATION')
}

const ingredientWords: Readonly<Record<string, string>> = {
  documentSymbols: 'document symbols',
  definition: 'definitions',
  references: 'references',
}

/** A file named by its last two path segments (a note names stale files briefly). */
function shortName(path: string): string {
  return path.split(/[\\/]/).slice(-2).join('/')
}

/**
 * The line that says an answer came from a precomputed index (RFC 0034): which one, and which files the live
 * server answered for because the index holds them stale. Nothing for a live answer with no stale file (the usual case).
 */
function sourceNote(metas: ReadonlyArray<LspResultMeta>): string | undefined {
  const sources = metas.flatMap((m) => (m.source === undefined ? [] : [m.source]))
  const build = sources.find((s) => s.index !== undefined)?.index
  const stale = [...new Set(sources.flatMap((s) => s.staleFiles ?? []))]
  const count = Math.max(stale.length, ...sources.map((s) => s.staleCount ?? 0))
  const named = `${stale.slice(0, 3).map(shortName).join(', ')}${count > 3 ? ` and ${count - 3} more` : ''}`
  const index =
    build === undefined
      ? 'a precomputed index'
      : `the index built ${build.indexedAt.replace('T', ' ').slice(0, 16)} UTC by ${build.indexer.name} ${build.indexer.version}${build.compiler === undefined ? '' : ` (${build.compiler})`}`
  const origins = new Set(sources.map((s) => s.origin))
  const notIndexed = Math.max(0, ...sources.map((s) => s.notIndexed ?? 0))
  const unsearched =
    notIndexed === 0
      ? ''
      : `; ${notIndexed === 1 ? 'a file' : `${notIndexed} files`} under the root that no indexed project holds ${notIndexed === 1 ? 'was' : 'were'} not searched (codeseam started with --no-index would search them)`
  if (origins.has('both') || (origins.has('index') && origins.has('live'))) {
    return `answered from ${index}, merged with the live server's answer for ${count === 1 ? 'a file' : `${count} files`} changed, added or deleted since (${named})${unsearched}`
  }
  if (origins.has('index'))
    return `answered from ${index}, not by the live server${count > 0 ? `; ${named} changed since and ${count === 1 ? 'is' : 'are'} missing from this answer (the live server failed)` : ''}${unsearched}`
  if (origins.has('live') && count > 0) return `answered by the live server, not ${index}: ${named} changed since it was built`
  return undefined
}

/** The line that says an answer was derived (RFC 0010): from what, and that it reads declarations. */
function derivedNote(metas: ReadonlyArray<LspResultMeta>): string | undefined {
  const from = [...new Set(metas.flatMap((m) => m.derived?.from ?? []))]
  if (from.length === 0) return undefined
  return `derived by codeseam from the server's ${from.map((o) => ingredientWords[o] ?? o).join(', ')} (the server has no such operation): a reading of the declared bases and overrides, not the type checker's answer`
}
