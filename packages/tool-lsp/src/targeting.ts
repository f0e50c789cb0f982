import * as nodePath from 'node:path'

import {
  displayPath,
  extensionOf,
  isLspError,
  LspError,
  resolveFile,
  resolveTarget,
  toModelPosition,
  type LspResultMeta,
  type LspTarget,
  type ResolvedFile,
  type ResolvedTarget,
} from '@codeseam/lsp'

import type { ToolContext } from './definition.js'
import type { ReadinessOutput, ResolvedTargetOutput, TargetInput } from './schemas.js'

/**
 * Target and file resolution as tools need it: the seam's resolution, confined to the roots the harness
 * allowed, with "no server for this language" turned into an error that says what to install.
 */

/** Well-known servers by extension: what to tell a model (and its user) when none is configured. */
const knownServers: Readonly<Record<string, string>> = {
  '.rb': 'Ruby: install ruby-lsp (gem install ruby-lsp) and add a profile for it',
  '.go': 'Go: install gopls (go install golang.org/x/tools/gopls@latest) and add a profile for it',
  '.rs': 'Rust: install rust-analyzer (rustup component add rust-analyzer) and add a profile for it',
  '.c': 'C/C++: install clangd (apt-get install clangd); the host has a built-in clangd profile',
  '.h': 'C/C++: install clangd (apt-get install clangd); the host has a built-in clangd profile',
  '.cpp': 'C/C++: install clangd (apt-get install clangd); the host has a built-in clangd profile',
  '.java': 'Java: install Eclipse JDT LS and add a profile for it',
  '.cs': 'C#: install csharp-ls (dotnet tool install -g csharp-ls) and add a profile for it',
  '.php': 'PHP: install intelephense (npm i -g intelephense) and add a profile for it',
  '.lua': 'Lua: install lua-language-server and add a profile for it',
  '.kt': 'Kotlin: install kotlin-language-server and add a profile for it',
  '.swift': 'Swift: sourcekit-lsp ships with the Swift toolchain; add a profile for it',
}

/** What to do about a file type no provider serves. */
export function installHint(path: string): string {
  const extension = extensionOf(path)
  if (extension === undefined) return 'the file has no extension, so no language server can be chosen for it'
  return knownServers[extension] ?? `configure a language server profile for "${extension}" files`
}

/** Fails with UNAVAILABLE (and what to install) when no provider owns the file. */
export function requireProvider(context: ToolContext, absolutePath: string, shownPath: string): void {
  if (context.lsp.providerFor(absolutePath) !== undefined) return
  const extension = extensionOf(absolutePath) ?? '(none)'
  const served = [...new Set(context.lsp.providers().flatMap((p) => Object.keys(p.extensions)))].sort()
  throw new LspError(
    'UNAVAILABLE',
    `no language server handles ${extension} files, so ${shownPath} cannot be analysed (served here: ${served.join(' ') || 'nothing'}). To fix: ${installHint(absolutePath)}. Until then use text search.`,
    { data: { extension, served } },
  )
}

function allowed(context: ToolContext, root: string): boolean {
  return context.roots.some((r) => nodePath.normalize(r.root) === nodePath.normalize(root))
}

function refuseRoot(context: ToolContext, path: string): LspError {
  return new LspError('OUTSIDE_WORKSPACE', `"${path}" is not in a workspace this tool may use (${context.roots.map((r) => r.id).join(', ') || 'none'})`)
}

/** Resolves a file inside the allowed roots. */
export async function resolveToolFile(context: ToolContext, path: string, rootId?: string): Promise<ResolvedFile> {
  const file = await resolveFile(context.lsp, path, rootId)
  if (!allowed(context, file.workspace.root)) throw refuseRoot(context, path)
  return file
}

/** Resolves a target inside the allowed roots; checks a provider serves it before asking for symbols. */
export async function resolveToolTarget(
  context: ToolContext,
  target: TargetInput,
  options: { readonly firstMatch?: boolean | undefined } = {},
): Promise<ResolvedTarget> {
  const file = await resolveToolFile(context, target.path, target.rootId)
  requireProvider(context, file.path, file.displayPath)
  // Decoded optional fields may be present as undefined; the seam's target type wants them absent.
  const clean = Object.fromEntries(Object.entries(target).filter(([, value]) => value !== undefined)) as unknown as LspTarget
  return resolveTarget(context.lsp, clean, { firstMatch: options.firstMatch === true, signal: context.signal })
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

/** Fan-out failures of providers that are not installed: a coverage gap, not trouble with this answer. */
function onlyMissingServers(meta: LspResultMeta): boolean {
  return meta.failures !== undefined && meta.failures.length > 0 && meta.failures.every((f) => f.code === 'UNAVAILABLE')
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

/**
 * A notice for an answer that is legitimately empty or short but should not be trusted as "nothing
 * exists": the server is still indexing, answered cold, or some providers failed.
 */
export function noticeFor(meta: LspResultMeta, empty: boolean, what: string): string | undefined {
  const notes: string[] = []
  if (meta.status === 'indexing') {
    notes.push(`the language server is still indexing the workspace, so ${what} may be incomplete${empty ? ' (an empty answer does not mean there are none)' : ''}; ask again once code_status shows it ready`)
  } else if (empty && !meta.warm) {
    notes.push(`the language server had just started; an empty answer may mean the project was not loaded yet, so ask again before concluding there are no ${what}`)
  }
  if (meta.stale === true) notes.push('the file changed while the server answered; positions may be off by a few lines')
  if (meta.truncated) notes.push(`the language server cut its answer short, so there may be more ${what} than counted here`)
  const failures = meta.failures ?? []
  const missing = failures.filter((f) => f.code === 'UNAVAILABLE')
  const failed = failures.filter((f) => f.code !== 'UNAVAILABLE')
  if (failed.length > 0) {
    notes.push(`some servers failed and are missing from this answer: ${failed.map((f) => `${f.providerId} (${f.code}: ${f.message})`).join('; ')}`)
  }
  if (missing.length > 0) {
    notes.push(`not covered, no server installed: ${missing.map((f) => `${f.providerId.replace(/^local:/, '')} (${f.message.replace(/^.*?unavailable: /, '')})`).join('; ')}`)
  }
  if (meta.droppedOutsideWorkspace !== undefined && meta.droppedOutsideWorkspace > 0) {
    notes.push(`${meta.droppedOutsideWorkspace} result(s) outside the workspace (libraries, generated files) were left out`)
  }
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
