import {
  displayPath,
  LspError,
  toModelPosition,
  type LspDiagnostic,
  type LspDiagnosticSeverity,
  type LspFileDiagnostics,
  type LspResultFor,
  type ResolvedFile,
} from '@codeseam/lsp'
import { Schema } from 'effect'

import { clampLimit, paginate, queryFingerprint } from './budget.js'
import { defineTool } from './definition.js'
import { askDiagnostics, keepableDiagnostics } from './diagnostics-answers.js'
import { languageDiagnosticsLimits, quoteDiagnosticsLimit } from './diagnostics-limits.js'
import { lines, plural, renderNotice, renderPage, renderReadiness } from './render.js'
import { KeptCursorInput, NonNegativeInt, PageOutput, PositiveInt, ReadinessOutput } from './schemas.js'
import { pageAnswer } from './kept-answers.js'
import { snippetLine, sourceReader } from './sources.js'
import {
  completeButForMissingServers,
  joinNotices,
  noticeForRoots,
  readinessOf,
  requireProvider,
  resolveToolFile,
  skippedFilesNote,
  shown,
  worstReadiness,
} from './targeting.js'

/** Severities from most to least severe. */
export const severities = ['error', 'warning', 'information', 'hint'] as const satisfies ReadonlyArray<LspDiagnosticSeverity>

/** Limits of `code_diagnostics`. */
export const diagnosticsLimits = { defaultLimit: 100, maxLimit: 500 } as const

/** The most files a workspace-wide question may ask each server to open. */
const maxWorkspaceFiles = 2_000

const DiagnosticsInput = Schema.Struct({
  path: Schema.optional(Schema.String).annotate({
    description: 'One file. Omit for the whole workspace (the files the servers have analysed).',
  }),
  rootId: Schema.optional(Schema.String).annotate({ description: 'Limit to one open workspace (by id).' }),
  severity: Schema.optional(Schema.Literals(severities)).annotate({
    description: 'Lowest severity shown (default "information"). "hint" also shows unused-code and style hints, left out by default.',
  }),
  limit: Schema.optional(PositiveInt).annotate({ description: 'Diagnostics per page (default 100, max 500).' }),
  maxFiles: Schema.optional(PositiveInt.check(Schema.isLessThanOrEqualTo(maxWorkspaceFiles))).annotate({
    description: `Whole workspace only: how many files each language server opens to analyse (default: the host's limit, 50 for the local host; max ${maxWorkspaceFiles}).`,
  }),
  cursor: KeptCursorInput,
})

const Counts = Schema.Struct({ error: NonNegativeInt, warning: NonNegativeInt, information: NonNegativeInt, hint: NonNegativeInt })

const DiagnosticOutput = Schema.Struct({
  line: PositiveInt,
  column: PositiveInt,
  endLine: PositiveInt,
  endColumn: PositiveInt,
  severity: Schema.Literals(severities),
  message: Schema.String,
  code: Schema.optional(Schema.String),
  source: Schema.optional(Schema.String),
  /** The source line the diagnostic starts on. */
  snippet: Schema.String,
})

const DiagnosticsOutput = Schema.Struct({
  scope: Schema.Literals(['file', 'workspace']),
  path: Schema.optional(Schema.String),
  /** Shown diagnostics by severity (after the severity filter, across all pages). */
  counts: Counts,
  /** Left out by the filter: hint-level and "unnecessary"-tagged (unused) diagnostics, and anything below `severity`. */
  hidden: NonNegativeInt,
  /** This page, grouped by file (errors first within a file, then by line). */
  files: Schema.Array(
    Schema.Struct({
      path: Schema.String,
      /** current: for the file as it is now; stale: for an older version; unknown: cannot tell. */
      freshness: Schema.Literals(['current', 'stale', 'unknown']),
      count: NonNegativeInt,
      diagnostics: Schema.Array(DiagnosticOutput),
    }),
  ),
  coverage: Schema.Struct({
    /** Files analysed for this answer. */
    analysed: NonNegativeInt,
    /** Files that could have been analysed, when the server knows. */
    eligible: Schema.optional(NonNegativeInt),
    complete: Schema.Boolean,
  }),
  /**
   * Checks the language servers did not run for the languages in this answer (rust-analyzer without `cargo
   * check`), each with how to get them: absent when every language is checked as its compiler would.
   */
  notChecked: Schema.optional(Schema.Array(Schema.Struct({ language: Schema.String, limit: Schema.String }))),
  page: PageOutput,
  readiness: ReadinessOutput,
  notice: Schema.optional(Schema.String),
})

/** The decoded result of `code_diagnostics`. */
export type DiagnosticsResult = typeof DiagnosticsOutput.Type

function isNoise(diagnostic: LspDiagnostic): boolean {
  return diagnostic.severity === 'hint' || (diagnostic.tags?.includes('unnecessary') ?? false)
}

interface Entry {
  readonly root: string
  readonly file: LspFileDiagnostics
  readonly diagnostic: LspDiagnostic
}

/** `code_diagnostics`: errors and warnings for a file or the workspace, with counts, freshness and coverage. */
export const codeDiagnostics = defineTool({
  name: 'code_diagnostics',
  title: 'Diagnostics',
  description: [
    'Compiler and type-checker errors and warnings for one file or the whole workspace, from the language servers (the same problems an editor underlines).',
    'Use it after editing to check the code still type-checks, or to find what is broken, instead of running a full build.',
    'Returns counts by severity, how fresh each file\'s diagnostics are and which files were covered; hint-level and unused-code noise is left out unless severity "hint" is asked for.',
  ].join(' '),
  input: DiagnosticsInput,
  output: DiagnosticsOutput,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },

  async execute(input, context) {
    const threshold = severities.indexOf(input.severity ?? 'information')
    const includeNoise = input.severity === 'hint'
    let file: ResolvedFile | undefined
    if (input.path !== undefined) {
      file = await resolveToolFile(context, input.path, input.rootId)
      requireProvider(context, file.path, file.displayPath)
    }
    const path = file?.displayPath
    const roots = file !== undefined ? [] : input.rootId === undefined ? context.roots : context.roots.filter((r) => r.id === input.rootId)
    if (file === undefined && roots.length === 0) {
      throw new LspError(
        'NOT_FOUND',
        `no workspace "${input.rootId}" is available (available: ${context.roots.map((r) => r.id).join(', ') || 'none'})`,
      )
    }
    const limit = clampLimit(input.limit, diagnosticsLimits)
    const fingerprint = queryFingerprint([
      'code_diagnostics',
      path ?? null,
      input.rootId ?? null,
      input.severity ?? null,
      input.maxFiles ?? null,
    ])
    // A later page of a kept answer asks no server (RFC 0026).
    const answer = await pageAnswer(context, {
      roots: file === undefined ? roots.map((r) => r.root) : [file.workspace.root],
      fingerprint,
      cursor: input.cursor,
      async compute(keepable) {
        const asked = await askDiagnostics(context, file, roots, input.maxFiles)
        const shown = asked.answers.reduce((sum, a) => sum + a.result.files.reduce((n, f) => n + f.diagnostics.length, 0), 0)
        return { value: asked, keep: keepable && shown > limit && keepableDiagnostics(asked) }
      },
    })
    const { answers, gaps } = answer.value

    const counts = { error: 0, warning: 0, information: 0, hint: 0 }
    let hidden = 0
    const kept: Entry[] = []
    for (const { root, result } of answers) {
      for (const file of result.files) {
        for (const diagnostic of file.diagnostics) {
          if (severities.indexOf(diagnostic.severity) > threshold || (!includeNoise && isNoise(diagnostic))) {
            hidden++
            continue
          }
          counts[diagnostic.severity]++
          kept.push({ root, file, diagnostic })
        }
      }
    }
    kept.sort(
      (a, b) =>
        (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) ||
        severities.indexOf(a.diagnostic.severity) - severities.indexOf(b.diagnostic.severity) ||
        a.diagnostic.range.start.line - b.diagnostic.range.start.line ||
        a.diagnostic.range.start.character - b.diagnostic.range.start.character,
    )
    const { items, page } = paginate(kept, { limit, cursor: input.cursor, fingerprint, mark: answer.mark })

    const perFile = new Map<string, number>()
    for (const entry of kept) perFile.set(entry.file.path, (perFile.get(entry.file.path) ?? 0) + 1)
    const groups = new Map<string, { root: string; file: LspFileDiagnostics; diagnostics: Array<typeof DiagnosticOutput.Type> }>()
    const readers = new Map(answers.map((a) => [a.root, sourceReader(context, a.root)]))
    for (const entry of items) {
      const source = await readers.get(entry.root)!.read(entry.file.path)
      const start = toModelPosition(entry.diagnostic.range.start)
      const end = toModelPosition(entry.diagnostic.range.end)
      const group = groups.get(entry.file.path) ?? { root: entry.root, file: entry.file, diagnostics: [] }
      group.diagnostics.push({
        line: start.line,
        column: start.column,
        endLine: end.line,
        endColumn: end.column,
        severity: entry.diagnostic.severity,
        message: entry.diagnostic.message,
        ...(entry.diagnostic.code === undefined ? {} : { code: String(entry.diagnostic.code) }),
        ...(entry.diagnostic.source === undefined ? {} : { source: entry.diagnostic.source }),
        snippet:
          source === undefined ? '' : snippetLine(source.lines, entry.diagnostic.range.start.line, entry.diagnostic.range.start.character),
      })
      groups.set(entry.file.path, group)
    }

    const analysed = answers.reduce((sum, a) => sum + a.result.coverage.analysed.length, 0)
    const eligibleKnown = answers.every((a) => a.result.coverage.eligible !== undefined)
    const complete =
      gaps.length === 0 &&
      answers.every(
        (a) =>
          a.result.coverage.complete ||
          (completeButForMissingServers(a.result.meta) &&
            a.result.coverage.eligible !== undefined &&
            a.result.coverage.analysed.length >= a.result.coverage.eligible),
      )
    const stale = [...groups.values()].filter((g) => g.file.freshness === 'stale').length
    // The languages the answer covers: its files' and the files it analysed.
    const notChecked = languageDiagnosticsLimits(
      context.lsp,
      answers.flatMap((a) => [...a.result.files.map((f) => f.path), ...a.result.coverage.analysed]),
    )
    const notice = joinNotices(
      noticeForRoots(
        // Diagnostics the server computed for every file as it is now: asking again gives the same answer.
        answers.map((a) => ({
          meta: a.result.meta,
          rootId: a.rootId,
          settled: a.result.meta.status !== 'indexing' && a.result.files.every((f) => f.freshness === 'current'),
        })),
        kept.length === 0,
        'diagnostics',
        gaps,
      ),
      !complete && path === undefined
        ? `only ${plural(analysed, 'file')} ${analysed === 1 ? 'was' : 'were'} analysed${eligibleKnown ? ` of ${answers.reduce((s, a) => s + (a.result.coverage.eligible ?? 0), 0)}` : ''}: a workspace-wide question opens a bounded number of files per language server${input.maxFiles === undefined ? '' : ` (maxFiles ${input.maxFiles})`}; pass maxFiles (up to ${maxWorkspaceFiles}) to analyse more, or ask per file (path)${notAnalysedNote(answers)}`
        : undefined,
      skippedFilesNote(answers.flatMap((a) => a.result.coverage.filesSkipped ?? [])),
      stale > 0
        ? `${plural(stale, 'file')} ${stale === 1 ? 'has' : 'have'} diagnostics for an older version; ask again in a moment`
        : undefined,
      ...[...readers.values()].map((reader) => reader.unreadableNotice()),
    )
    return {
      scope: path === undefined ? ('workspace' as const) : ('file' as const),
      ...(path === undefined ? {} : { path }),
      counts,
      hidden,
      files: [...groups.values()].map((g) => ({
        path: shown(g.root, g.file.path),
        freshness: g.file.freshness,
        count: perFile.get(g.file.path) ?? g.diagnostics.length,
        diagnostics: g.diagnostics,
      })),
      coverage: {
        analysed,
        ...(eligibleKnown ? { eligible: answers.reduce((s, a) => s + (a.result.coverage.eligible ?? 0), 0) } : {}),
        complete,
      },
      ...(notChecked.length === 0 ? {} : { notChecked }),
      page,
      readiness: worstReadiness([
        ...answers.map((a) => readinessOf(a.result.meta)),
        ...(gaps.length > 0 ? [{ status: 'degraded' as const, warm: true, provider: answers[0]?.result.meta.providerId ?? 'none' }] : []),
      ]),
      ...(notice === undefined ? {} : { notice }),
    }
  },

  summary(result) {
    const parts = severities
      .filter((s) => result.counts[s] > 0)
      .map((s) => plural(result.counts[s], s === 'information' ? 'info' : s, s === 'information' ? 'infos' : undefined))
    const languages = (result.notChecked ?? []).map((l) => l.language)
    const unseen = languages.length === 0 ? '' : ` (not checked: some ${languages.join(', ')} compiler checks)`
    if (parts.length > 0) return `${parts.join(', ')}${unseen}`
    return result.scope === 'workspace'
      ? `no problems in ${plural(result.coverage.analysed, 'file')} analysed${unseen}`
      : `no problems reported${unseen}`
  },

  render(result) {
    const body: string[] = []
    for (const file of result.files) {
      body.push(`${file.path} (${file.count}${file.freshness === 'current' ? '' : `, ${file.freshness}`})`)
      for (const d of file.diagnostics) {
        // Numeric codes read best with their source (ts2322); named codes stand alone (reportAssignmentType).
        const code = d.code === undefined ? '' : /^\d+$/.test(d.code) ? ` ${d.source ?? ''}${d.code}` : ` ${d.code}`
        body.push(`  ${d.line}:${d.column} ${d.severity}${code}: ${d.message.trim().replace(/\s*\n\s*/g, '; ')}`)
        if (d.snippet !== '') body.push(`      ${d.snippet}`)
      }
    }
    const counts = severities.filter((s) => result.counts[s] > 0).map((s) => `${result.counts[s]} ${s}`)
    const limited = result.notChecked !== undefined && result.notChecked.length > 0
    return lines(
      `${result.scope === 'file' ? result.path : 'workspace'}: ${counts.length === 0 ? noProblems(result, limited) : counts.join(', ')}${result.hidden > 0 ? ` (${result.hidden} hints/unused hidden)` : ''}`,
      `coverage: ${plural(result.coverage.analysed, 'file')} analysed${result.coverage.eligible === undefined ? '' : ` of ${result.coverage.eligible}`}${result.coverage.complete ? '' : ' (incomplete)'}`,
      limited ? `not checked: ${result.notChecked!.map(quoteDiagnosticsLimit).join('; ')}` : undefined,
      renderReadiness(result.readiness),
      renderNotice(result.notice),
      body,
      renderPage(result.page, 'diagnostics'),
    )
  },
})

/**
 * "No problems" as far as it was checked: in the files analysed (a workspace answer covers only the files the
 * servers were given, none has workspace-wide diagnostics), and as the language servers check them when their
 * checks are narrower than the compiler's (`notChecked`).
 */
function noProblems(result: DiagnosticsResult, limited: boolean): string {
  const analysed = result.coverage.analysed
  const where =
    result.scope === 'file'
      ? result.coverage.complete
        ? ''
        : ' reported yet (the diagnostics are not for the file as it is now)'
      : analysed === 0
        ? ' known: no file was analysed'
        : ` in the ${plural(analysed, 'file')} analysed`
  const languages = (result.notChecked ?? []).map((l) => l.language).join(', ')
  return `no problems${where}${limited ? ` (${languages}: only the language server's own checks, not every check the compiler runs; see "not checked")` : ''}`
}

/** The files a bounded answer names as left out (workspace-relative), when the backend names any. */
function notAnalysedNote(answers: ReadonlyArray<{ readonly root: string; readonly result: LspResultFor<'diagnostics'> }>): string {
  const named = answers.flatMap((a) => (a.result.coverage.notAnalysed ?? []).map((path) => displayPath(a.root, path)))
  return named.length === 0 ? '' : `; not analysed, among others: ${named.join(', ')}`
}
