import {
  displayPath,
  isLspError,
  isWithin,
  rootHolding,
  rangesOverlap,
  TextLines,
  toLspError,
  type LspLocation,
  type LspRange,
  type LspService,
  type LspTextEdit,
  type LspWorkspace,
  type LspWorkspaceEdit,
} from '@codeseam/lsp'

import type { IntegrityLocation, RenameIntegrity } from './receipt.js'

/**
 * Rename integrity (RFC 0018): a rename's edit compared with the symbol's complete references, asked the
 * same way `code_navigate` asks them. Every reference is one of:
 * - covered: an edit of the rename overlaps it;
 * - through an alias: its text is another name (`g` after `export { f as g }`): the alias is unchanged, by design;
 * - kept by an alias: its text is the old name, and the edit keeps the old name as an alias somewhere
 *   (`export { g as f }`, `from .m import g as f`): uses of the alias keep working;
 * - left behind: its text is the old name and nothing keeps it bound — it would break or bind to something else.
 * The files of every reference are the impact set whose diagnostics are checked before and after.
 */

/** What {@link renameIntegrity} found. */
export interface IntegrityCheck {
  /** Undefined when the references could not be asked (the notes say why). */
  readonly integrity?: RenameIntegrity
  /** Absolute paths of the files that referred to the symbol before the edit. */
  readonly impact: ReadonlyArray<string>
  readonly notes: ReadonlyArray<string>
}

const wordPattern = (name: string) =>
  new RegExp(`(^|[^\\p{ID_Continue}$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{ID_Continue}$])`, 'u')

/** Compares a rename's edit with the references of the symbol at `position`. */
export async function renameIntegrity(
  lsp: LspService,
  workspace: LspWorkspace,
  request: {
    readonly root: string
    readonly path: string
    readonly position: { readonly line: number; readonly character: number }
    readonly oldName: string
    readonly newName: string
    readonly edit: LspWorkspaceEdit
    readonly allowPartial: boolean
  },
  signal: AbortSignal,
): Promise<IntegrityCheck> {
  let locations: ReadonlyArray<LspLocation>
  try {
    const answer = await lsp.query({ operation: 'references', root: request.root, path: request.path, position: request.position }, signal)
    locations = answer.locations
  } catch (cause) {
    if (signal.aborted) throw cause
    const error = toLspError(cause, 'SERVER_ERROR', 'references')
    if (isLspError(error, 'UNSUPPORTED_OPERATION')) {
      return { impact: [], notes: ['the server has no references, so the rename could not be compared with the uses of the symbol'] }
    }
    throw error
  }
  const texts = new Map<string, TextLines | null>()
  const linesOf = async (path: string): Promise<TextLines | null> => {
    if (!texts.has(path)) {
      try {
        // A reference in another open root of the workspace (RFC 0025) is read there.
        const holding = isWithin(workspace.root, path) ? undefined : rootHolding(lsp.workspaces(), path)
        const owner = (holding === undefined ? undefined : lsp.workspace(holding.root)) ?? workspace
        texts.set(path, new TextLines((await owner.readFile(path, signal)).text))
      } catch {
        texts.set(path, null)
      }
    }
    return texts.get(path) ?? null
  }
  const editsByPath = new Map<string, LspTextEdit[]>()
  for (const op of request.edit.operations) {
    if (op.type !== 'edit') continue
    editsByPath.set(op.path, [...(editsByPath.get(op.path) ?? []), ...op.edits])
  }

  // Which names change: old text → new text of every edit.
  const names = new Map<string, { from: string; to: string; count: number }>()
  let keepsOldName = false
  const oldWord = wordPattern(request.oldName)
  for (const [path, edits] of editsByPath) {
    const lines = await linesOf(path)
    for (const edit of edits) {
      const from = lines === null ? '' : textIn(lines, edit.range)
      const key = `${from}\u0000${edit.newText}`
      const known = names.get(key)
      if (known === undefined) names.set(key, { from, to: edit.newText, count: 1 })
      else known.count += 1
      if (edit.newText !== request.oldName && oldWord.test(edit.newText)) keepsOldName = true
    }
  }

  let covered = 0
  const leftBehind: IntegrityLocation[] = []
  const keptByAlias: IntegrityLocation[] = []
  const throughAlias: Array<IntegrityLocation & { name: string }> = []
  const impact = new Set<string>()
  for (const location of locations) {
    impact.add(location.path)
    if ((editsByPath.get(location.path) ?? []).some((edit) => rangesOverlap(edit.range, location.range))) {
      covered += 1
      continue
    }
    const lines = await linesOf(location.path)
    const text = lines === null ? '' : textIn(lines, location.range)
    const place: IntegrityLocation = {
      path: displayPath(request.root, location.path),
      line: location.range.start.line + 1,
      column: location.range.start.character + 1,
      snippet: lines === null ? '' : lineText(lines, location.range.start.line),
    }
    if (text === request.newName) covered += 1
    else if (text !== request.oldName && text.length > 0) throughAlias.push({ ...place, name: text })
    else if (keepsOldName) keptByAlias.push(place)
    else leftBehind.push(place)
  }

  // Uses the server cannot see (Rust `macro_rules!` bodies): the old name in the unresolved text of the files
  // the rename reaches, where no edit and no reference is. The compiler binds them where the text expands.
  const seen = new Set(locations.map((l) => `${l.path}:${l.range.start.line}:${l.range.start.character}`))
  let unresolved = 0
  for (const path of new Set([...impact, ...editsByPath.keys()])) {
    const owner = lsp.providerFor(path)
    const opaque = owner === undefined ? undefined : lsp.languageFacts(owner.languageId)?.unresolvedText
    if (opaque === undefined) continue
    const lines = await linesOf(path)
    if (lines === null) continue
    const edits = editsByPath.get(path) ?? []
    for (const [start, end] of opaque.spans(lines.text)) {
      for (const offset of wordsIn(lines.text, start, end, request.oldName)) {
        const from = lines.positionAt(offset)
        const range = { start: from, end: lines.positionAt(offset + request.oldName.length) }
        if (seen.has(`${path}:${from.line}:${from.character}`) || edits.some((edit) => rangesOverlap(edit.range, range))) continue
        unresolved += 1
        leftBehind.push({
          path: displayPath(request.root, path),
          line: from.line + 1,
          column: from.character + 1,
          snippet: lineText(lines, from.line),
          inside: opaque.what,
        })
      }
    }
  }
  const integrity: RenameIntegrity = {
    references: locations.length,
    covered,
    leftBehind,
    throughAlias,
    names: [...names.values()].sort((a, b) => b.count - a.count),
    keptByAlias,
    partialAccepted: request.allowPartial && leftBehind.length > 0,
  }
  const notes: string[] = []
  if (unresolved > 0 && request.allowPartial) {
    notes.push(
      `${unresolved} use${unresolved === 1 ? '' : 's'} of "${request.oldName}" inside text the server does not resolve stay unchanged (partial rename accepted)`,
    )
  }
  if (keptByAlias.length > 0) {
    notes.push(
      `${keptByAlias.length} use${keptByAlias.length === 1 ? '' : 's'} of "${request.oldName}" stay as they are: the rename keeps "${request.oldName}" as an alias; their diagnostics are checked`,
    )
  }
  if (throughAlias.length > 0) {
    const aliases = [...new Set(throughAlias.map((t) => t.name))].join(', ')
    notes.push(`${throughAlias.length} use${throughAlias.length === 1 ? '' : 's'} through an alias (${aliases}) keep the alias name`)
  }
  return { integrity, impact: [...impact], notes }
}

/** Offsets of `name` as a whole word between `start` and `end` (a `$name` macro metavariable is not one). */
function wordsIn(text: string, start: number, end: number, name: string): number[] {
  const found: number[] = []
  const word = /[\p{ID_Continue}$]/u
  for (let at = text.indexOf(name, start); at !== -1 && at + name.length <= end; at = text.indexOf(name, at + 1)) {
    if (!word.test(text[at - 1] ?? ' ') && !word.test(text[at + name.length] ?? ' ')) found.push(at)
  }
  return found
}

function textIn(lines: TextLines, range: LspRange): string {
  return lines.text.slice(lines.offsetAt(range.start), lines.offsetAt(range.end))
}

function lineText(lines: TextLines, line: number): string {
  const start = lines.offsetAt({ line, character: 0 })
  const next = lines.text.indexOf('\n', start)
  return lines.text
    .slice(start, next === -1 ? undefined : next)
    .replace(/\r$/, '')
    .trim()
    .slice(0, 200)
}

/** Why uses are left behind: references the server's rename skips, text it does not resolve, or both. */
function because(leftBehind: ReadonlyArray<IntegrityLocation>): string {
  const inside = [...new Set(leftBehind.flatMap((l) => (l.inside === undefined ? [] : [l.inside])))]
  const skipped = "the language server's rename does not cover every reference it finds"
  if (inside.length === 0) return skipped
  const opaque = `the server resolves no names inside ${inside.join(' or ')}, so neither its rename nor its references reach them`
  return leftBehind.every((l) => l.inside !== undefined) ? opaque : `${skipped}; ${opaque}`
}

/** The refusal message of a rename that leaves uses behind, naming them (path:line and the line's text). */
export function leftBehindMessage(oldName: string, leftBehind: ReadonlyArray<IntegrityLocation>): string {
  const shown = leftBehind
    .slice(0, 10)
    .map((l) => `  ${l.path}:${l.line}: ${l.snippet}${l.inside === undefined ? '' : ` (inside ${l.inside})`}`)
  const more = leftBehind.length > shown.length ? [`  … and ${leftBehind.length - shown.length} more`] : []
  return [
    `the rename would leave ${leftBehind.length} use${leftBehind.length === 1 ? '' : 's'} of "${oldName}" unchanged (${because(leftBehind)}); nothing was written:`,
    ...shown,
    ...more,
    'Rename those uses yourself, or accept a partial rename explicitly (allowPartial: true; CLI --allow-partial) to write it anyway.',
  ].join('\n')
}
